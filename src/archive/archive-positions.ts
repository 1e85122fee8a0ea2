import { providerPayload } from "../dialects/messages.js";
import type { Dialect } from "../dialects/dialect.js";
import type { MessageFormats } from "../dialects/format-claims.js";
import type { AnyMessage } from "../ground/types.js";
import { headLength } from "../plan/split-at-user-boundary.js";
import type { ArchivedRange } from "./conversation-archive.js";
import type { ConversationState } from "../stores/conversation-state.js";

/**
 * Where each input message sits in the conversation, as the archive numbers it: its index, plus
 * the messages that slid out of the front of the input (a window of the thread's last messages).
 * The head (a system prompt) never slides.
 *
 * How far the input slid is known from the state that applies to it (`conversationCovered`).
 * Without one (the window slid past every message the state covered, or the state is gone), it is
 * read from the archive when it was read: the first input message the archive holds says where the
 * input starts; when it holds none, the input is taken to follow the newest message it holds, so
 * that a new message never takes the position of an archived one.
 *
 * @param messages - the input
 * @param state - the state applied to the input, if any
 * @param archived - the archive as read, when it was
 * @param dialect - the transcript's format, which says where its head ends
 * @returns the position of the input message at an index
 * @example
 * const positionOf = archivePositions(window, appliedState, undefined, { dialect });
 * positionOf(1); // 41: forty messages slid out before the window's first one
 */
export function archivePositions(
  messages: readonly AnyMessage[],
  state: ConversationState | undefined,
  archived: readonly ArchivedRange[] | undefined,
  /** The transcript's format, and the formats of its messages when the call has read them. */
  { dialect, formats }: { dialect: Dialect; formats?: MessageFormats },
): (index: number) => number {
  const head = headLength(messages, dialect, formats);
  const slid =
    state !== undefined
      ? (state.conversationCovered ?? state.covered) - state.covered
      : archived === undefined
        ? 0
        : slidFromArchive(messages, head, archived);
  return (index) => (index < head ? index : index + slid);
}

/** How far the input slid, read from the archive (see `archivePositions`). */
function slidFromArchive(messages: readonly AnyMessage[], head: number, archived: readonly ArchivedRange[]): number {
  const positions = new Map<string, number>();
  let newest = -1;
  for (const range of archived) {
    for (const entry of range.messages) {
      positions.set(JSON.stringify(entry.message), entry.index);
      newest = Math.max(newest, entry.index);
    }
  }
  if (newest < 0) return 0;
  // Archived as the caller sent it, in its own format: compared in that form.
  for (let index = head; index < messages.length; index++) {
    const message = messages[index] as object;
    const position = positions.get(JSON.stringify(providerPayload(message) ?? message));
    if (position !== undefined) return Math.max(0, position - index);
  }
  return Math.max(0, newest + 1 - head);
}
