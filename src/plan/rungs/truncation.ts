import type { AnyMessage } from "../../ground/types.js";
import type { PlanContext } from "../plan-context.js";
import { truncateToolPayloads } from "../truncate-tool-payloads.js";
import type { KeptTail } from "./kept-tail.js";

/**
 * Rung 4, `truncateToolResults`: the kept tail with its oversized tool payloads cut to fit its
 * room. Undefined when it already fits, the rung is off, or there is nothing to cut.
 */
export function truncation<M extends AnyMessage>(context: PlanContext<M>, kept: KeptTail<M>): KeptTail<M> | undefined {
  const { settings, tokens } = context;
  const tailTokens = context.tailTokens(kept);
  const room = context.roomFor(kept);
  if (!settings.truncateToolResults || tailTokens <= room) return undefined;
  const cut = truncateToolPayloads(kept.tail, room, settings.countTokens, { calibration: tokens.calibration, formats: context.view });
  return cut === undefined ? undefined : { ...kept, tail: cut.messages, tailTokens: cut.tokens, truncated: true };
}
