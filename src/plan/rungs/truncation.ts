import type { AnyMessage } from "../../ground/types.js";
import type { PlanContext } from "../plan-context.js";
import { truncateToolPayloads } from "../truncate-tool-payloads.js";
import { keptFrom, type KeptTail } from "./kept-tail.js";

/**
 * Rung 4, `truncateToolResults`: the kept tail with its oversized tool payloads cut to fit its
 * room. Undefined when it already fits, the rung is off, or there is nothing to cut.
 */
export function truncation<M extends AnyMessage>(context: PlanContext<M>, kept: KeptTail<M>): KeptTail<M> | undefined {
  const { options, tokens } = context;
  const tailTokens = context.tailTokens(kept);
  const room = context.roomFor(kept);
  if (!options.truncateToolResults || tailTokens <= room) return undefined;
  const cut = truncateToolPayloads(kept.tail, room, options.countTokens, {
    calibration: tokens.calibration,
    formats: context.view,
  });
  return cut === undefined ? undefined : { ...kept, tail: cut.messages, tailTokens: cut.tokens, truncated: true };
}

/**
 * Rung 4, for the latest turn: when the kept tail holds nothing of the turn after the latest user
 * message (no tool group of it fits, as a tool result too large for any tail, in the first turn as
 * in any), the whole turn is kept instead with its oversized payloads cut, when that fits: the model
 * sees the start and end of what it asked for, rather than a summary of it. Undefined when the tail
 * holds some of the turn's work (its older groups are summarized, as the in-turn split does), or the
 * cut turn does not fit.
 */
export function latestTurnCut<M extends AnyMessage>(
  context: PlanContext<M>,
  kept: KeptTail<M>,
): KeptTail<M> | undefined {
  const { latestUser, head, messages } = context;
  if (!context.options.truncateToolResults || latestUser === -1 || kept.tailStart <= latestUser + 1) return undefined;
  const keepsNothingAfterUser =
    kept.tailStart >= messages.length || (kept.pinned.includes(latestUser) && kept.tail.length === 1);
  // The turn is kept from its user message, which must be a place a tail may start (no call cut from its result).
  if (!keepsNothingAfterUser || (latestUser > head && !context.isTailStart(latestUser))) return undefined;
  const whole = keptFrom(context, Math.max(head, latestUser));
  const cut = truncation(context, whole) ?? whole;
  return context.tailTokens(cut) <= context.roomFor(cut) ? cut : undefined;
}
