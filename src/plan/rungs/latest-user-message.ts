import type { AnyMessage } from "../../ground/types.js";
import type { PlanContext } from "../plan-context.js";
import { keptUserAnd, type KeptTail } from "./kept-tail.js";

/**
 * Rung 5, always on, the last resort: the latest user message alone, everything after it
 * summarized. The latest user message is never summarized away. Undefined without a user message.
 */
export function latestUserMessageAlone<M extends AnyMessage>(context: PlanContext<M>): KeptTail<M> | undefined {
  const user = context.latestUser;
  return user === -1 ? undefined : keptUserAnd(context, { user, groupStart: context.messages.length });
}

/** True when `kept` keeps the latest user message (or there is none). */
export function holdsLatestUserMessage<M extends AnyMessage>(context: PlanContext<M>, kept: KeptTail<M>): boolean {
  const user = context.latestUser;
  return user === -1 || user >= kept.tailStart || kept.pinned.includes(user);
}

/** True when `kept` is the latest user message alone already. */
export function isLatestUserMessageAlone<M extends AnyMessage>(kept: KeptTail<M>): boolean {
  return kept.pinned.length === 1 && kept.tail.length === 1;
}
