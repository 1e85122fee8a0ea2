import type { AnyMessage } from "../../ground/types.js";
import type { PlanContext } from "../plan-context.js";

/** What a rung proposes: the older part the summary replaces, and what is kept after it. */
export interface KeptTail<M extends AnyMessage> {
  /** What the summary would replace: original messages, never masked. */
  older: M[];
  /** What is kept after the summary (masked where masking ran). */
  tail: M[];
  /** Index in `messages` where the kept suffix starts (`messages.length` when none is kept). */
  tailStart: number;
  /** Indices of messages before `tailStart` kept verbatim after the summary. */
  pinned: number[];
  /** Tokens of `tail` when already known (per-message counters); see `PlanContext.tailTokens`. */
  tailTokens: number | undefined;
  /** True when the truncation rung cut tool payloads of `tail`. */
  truncated: boolean;
}

/** Everything from `start` kept, everything between the head and it summarized. */
export function keptFrom<M extends AnyMessage>(context: PlanContext<M>, start: number): KeptTail<M> {
  const { messages, tokens, head } = context;
  return {
    older: messages.slice(head, start),
    tail: tokens.messages.slice(start),
    tailStart: start,
    pinned: [],
    tailTokens: tokens.isPerMessage ? tokens.countRange(start, messages.length) : undefined,
    truncated: false,
  };
}

/** The user message at `user` and everything from `groupStart` kept, the rest after the head summarized. */
export function keptUserAnd<M extends AnyMessage>(
  context: PlanContext<M>,
  at: { user: number; groupStart: number },
): KeptTail<M> {
  const { messages, tokens, head } = context;
  const { user, groupStart } = at;
  return {
    older: messages.slice(head, user).concat(messages.slice(user + 1, groupStart)),
    tail: [tokens.messages[user] as M].concat(tokens.messages.slice(groupStart)),
    tailStart: groupStart,
    pinned: [user],
    tailTokens: tokens.isPerMessage ? tokens.countAt(user) + tokens.countRange(groupStart, messages.length) : undefined,
    truncated: false,
  };
}
