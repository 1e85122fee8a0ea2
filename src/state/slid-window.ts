import { estimateTokens } from "../counting/estimate-tokens.js";
import { isUserBoundary } from "../dialects/messages.js";
import type { AnyMessage } from "../ground/types.js";
import type { ConversationState } from "../stores/conversation-state.js";
import { digestMessages } from "../stores/digest.js";

/**
 * How many of the last covered messages a state keeps a hash of: a window that still holds more
 * of the covered part than that is not followed, and compacts afresh once over the budget.
 */
export const TAIL_MESSAGES = 256;

/** Hex digits kept of each message's SHA-256: 64 bits, enough to tell the messages of one thread apart. */
const HASH_DIGITS = 16;

/**
 * Tokens (by `estimateTokens`) that the user messages of a matched run must hold after its first
 * user message: a couple of sentences a user typed, more than any "hi" an app's greeting answers.
 */
export const MIN_OWN_USER_TOKENS = 24;

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
 *
 * The covered messages the window still holds must also be long enough to be this conversation's
 * own (see `isOwnRun`): an app's greeting and the "hi" before it open many conversations, and a
 * summary that happened to end with them would otherwise follow any input that opens so.
 */
export async function slidState(
  messages: readonly AnyMessage[],
  state: ConversationState,
  head: number,
): Promise<ConversationState | undefined> {
  const tail = state.coveredTail;
  if (tail === undefined || tail.length === 0 || state.pinned.length > 0) return undefined;
  // The window lost at least one message from its front: the covered part ends before `covered`.
  const longest = Math.min(tail.length, state.covered - 1 - head, messages.length - head);
  if (longest <= 0) return undefined;
  const hashes = await Promise.all(messages.slice(head, head + longest).map(hashOf));
  for (let count = longest; count > 0; count--) {
    if (!hashes.slice(0, count).every((hash, index) => hash === tail[tail.length - count + index])) continue;
    if (!isOwnRun(messages.slice(head, head + count))) return undefined;
    const covered = head + count;
    const { usage: _usage, ...rest } = state;
    return {
      ...rest,
      covered,
      digest: await digestMessages(messages.slice(0, covered)),
      pinned: [],
      coveredTail: tail.slice(-count),
    };
  }
  return undefined;
}

/**
 * True when a run of covered messages found again at the front of a slid window is long enough
 * to be its conversation's own: it holds a user turn after its first one (that first one may be
 * the conversation's opening "hi", which any conversation may share), and the user turns after
 * the first hold at least `MIN_OWN_USER_TOKENS` tokens. What an app sends the same to everyone (a
 * greeting, a suggested question) is no user's turn, or is the first of them. A shorter match,
 * and every shorter run found instead, is no evidence; the input is compacted as it is.
 */
export function isOwnRun(run: readonly AnyMessage[]): boolean {
  const turns = run.filter((message) => isUserBoundary(message));
  return turns.length >= 2 && estimateTokens(turns.slice(1)) >= MIN_OWN_USER_TOKENS;
}
