import type { TranscriptView } from "./transcript-view.js";
import { smallestFittingFromEnd } from "./search-from-end.js";
import type { TranscriptTokens } from "../counting/token-counter.js";
import type { AnyMessage } from "../ground/types.js";

/** A tail cut inside a long turn: the turn's user message, then the newest complete tool groups. */
export interface InsideTurnTail {
  /** Index of the user message kept verbatim. */
  user: number;
  /** Index of the first kept tool group. */
  groupStart: number;
}

/** Where `findInsideTurnTail` looks, and what the tail may take. */
export interface InsideTurnSearch<M extends AnyMessage> {
  /** Length of the kept head: no user message before it is kept. */
  head: number;
  /** Tokens the kept user message and groups may take. */
  keepTail: number;
  /** Whether a tail may start at an index. */
  isBoundary: (index: number) => boolean;
  /** The plan's reading of the transcript: safe cuts, tool groups. */
  view: TranscriptView<M>;
}

/**
 * For `ladder.splitInsideTurn`: when no user-turn tail fits, keep the last user message plus the newest
 * complete tool groups that fit `keepTail` (or the last complete group when none fits). A group
 * opens at a message its dialect says may open one (an assistant turn, a call item), after which
 * no result answers an earlier call; no group starts right after an item bound to the next one.
 *
 * @param where - the head, the budget, the tail starts and the plan's reading of the transcript
 * @returns the cut, or undefined when there is no user message or no complete group after it
 */
export function findInsideTurnTail<M extends AnyMessage>(
  tokens: TranscriptTokens<M>,
  where: InsideTurnSearch<M>,
): InsideTurnTail | undefined {
  const { head, keepTail, isBoundary, view } = where;
  const { messages } = tokens;
  let user = -1;
  for (let index = messages.length - 1; index >= head; index--) {
    if (isBoundary(index)) {
      user = index;
      break;
    }
  }
  if (user === -1) return undefined;
  const safe = view.safeCuts();
  const groupStarts: number[] = [];
  for (let index = user + 1; index < messages.length; index++) {
    // Something must be left to summarize: the cut cannot leave `older` empty.
    if (index === user + 1 && user === head) continue;
    if (safe[index] === 1 && view.opensToolGroupAt(index) && !view.bindsToNextAt(index - 1)) groupStarts.push(index);
  }
  if (groupStarts.length === 0) return undefined;
  const last = groupStarts[groupStarts.length - 1] as number;
  if (tokens.isPerMessage) {
    let size = tokens.countAt(user);
    let fitting: number | undefined;
    let next = groupStarts.length - 1;
    for (let index = messages.length - 1; index > user && next >= 0; index--) {
      size += tokens.countAt(index);
      if (size > keepTail) break;
      if (index === groupStarts[next]) {
        fitting = index;
        next--;
      }
    }
    return { user, groupStart: fitting ?? last };
  }
  const first = smallestFittingFromEnd(
    groupStarts.length,
    (j) => tokens.countSuffix(groupStarts[j] as number, user) <= keepTail,
  );
  return { user, groupStart: first < groupStarts.length ? (groupStarts[first] as number) : last };
}
