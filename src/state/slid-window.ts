import type { AnyMessage } from "../ground/types.js";
import type { ConversationState } from "./conversation-state.js";
import { digestMessages } from "./digest.js";

/**
 * How many of the last covered messages a state keeps a hash of: a window that still holds more
 * of the covered part than that is not followed, and compacts afresh once over the budget.
 */
export const TAIL_MESSAGES = 256;

/** Hex digits kept of each message's SHA-256: 64 bits, enough to tell the messages of one thread apart. */
const HASH_DIGITS = 16;

const hashOf = async (message: AnyMessage): Promise<string> => (await digestMessages([message])).slice(0, HASH_DIGITS);

/** The hashes of the last covered messages after the head (at most `TAIL_MESSAGES`), oldest first. */
export async function coveredTailOf(messages: readonly AnyMessage[], covered: number, head: number): Promise<string[]> {
  return Promise.all(messages.slice(Math.max(head, covered - TAIL_MESSAGES), covered).map(hashOf));
}

/**
 * The state rebased onto an input whose window has slid: a caller that sends only the last
 * messages of a thread (Mastra's memory sends its last `lastMessages`) drops messages from the
 * front of the input on every turn, so the covered messages no longer open it and the prefix
 * digest cannot match. When the input's messages after the head begin with the last covered
 * messages, exactly as they were and in their order, with fewer of them than were covered, the
 * window has lost only older messages from its front: the summary stands for those and for the
 * covered ones it still holds, and the state covers the input up to them. Undefined otherwise: a
 * covered message edited or deleted, or one more than the state holds, invalidates the state as
 * before; so does a state with pinned messages, whose places in a slid window cannot be told.
 */
export async function slidState(messages: readonly AnyMessage[], state: ConversationState, head: number): Promise<ConversationState | undefined> {
  const tail = state.coveredTail;
  if (tail === undefined || tail.length === 0 || state.pinned.length > 0) return undefined;
  // The window lost at least one message from its front: the covered part ends before `covered`.
  const longest = Math.min(tail.length, state.covered - 1 - head, messages.length - head);
  if (longest <= 0) return undefined;
  const hashes = await Promise.all(messages.slice(head, head + longest).map(hashOf));
  for (let count = longest; count > 0; count--) {
    if (!hashes.slice(0, count).every((hash, index) => hash === tail[tail.length - count + index])) continue;
    const covered = head + count;
    const { usage: _usage, ...rest } = state;
    return { ...rest, covered, digest: await digestMessages(messages.slice(0, covered)), pinned: [], coveredTail: tail.slice(-count) };
  }
  return undefined;
}
