import type { SummarySection } from "../text/summary-sections.js";

/**
 * How sections share the summary's room (`context.maxSummaryTokens` of a whole summary). The first
 * summary takes all of it; each later one half of what the earlier ones leave, but never less than
 * a useful share (`smallestAsk`: a quarter of the room, and at least `USEFUL_SECTION_TOKENS` where
 * the room holds that many): a section asked for a few dozen tokens is one no model writes, and a
 * summarizer refused at every later call leaves the transcript growing past its budget. When what
 * is left cannot give a new section that share, the newest sections merge into one, which takes
 * half of what stays (or all of it, where the merge is balanced): the merge of equal depths doubles
 * what a section stands for, as a binary counter carries. With at most a few sections in the room,
 * the oldest facts go through more summarizations than a counter of log₂ n digits would put them
 * through, and far fewer than re-summarizing the whole summary at each compaction (n).
 */
const MIN_SECTION_TOKENS = 24;
/** The least a new section is asked for where the room holds it: a paragraph a model can write. */
export const USEFUL_SECTION_TOKENS = 300;

/** The least a new section is asked for in a room of `room` tokens. */
export function smallestAsk(room: number): number {
  return Math.max(1, Math.min(room, Math.max(Math.ceil(room / 4), USEFUL_SECTION_TOKENS)));
}
/**
 * A summary's room under this many tokens holds one summary, not sections: the earlier one is
 * rolled into the new one, which takes the whole room as a single section. Its header still says
 * what its facts went through, from half this room; below that (a window of a few hundred tokens)
 * it has no header, and the count starts again.
 */
export const MIN_ROOM_FOR_SECTIONS = 16 * MIN_SECTION_TOKENS;

/** What the next summary does with the earlier ones. */
export interface SectionPlan {
  /** Earlier sections that stay exactly as they are, before the new one. */
  kept: SummarySection[];
  /** The newest earlier sections the new one merges (adjacent, oldest first); empty when none. */
  merging: SummarySection[];
  /** Tokens the new section's text may take (`context.maxSummaryTokens`). */
  budget: number;
  /** The new section's depth and what it stands for. */
  depth: number;
  covers: number;
}

/**
 * Chooses what the next compaction's summary merges. Without earlier sections, nothing, and the
 * summary takes the whole room; while the earlier ones leave room for a section, nothing, and the
 * new one takes half of what they leave. Otherwise the newest section merges with the new range,
 * and so does each older one whose depth is no greater than the deepest merged so far (or while
 * what stays still leaves no room): the oldest sections, the deepest, stay as they are. Linear in
 * the number of sections.
 *
 * @param earlier - the earlier summary's sections, oldest first
 * @param room - tokens the whole summary's text may take
 * @param tokens - tokens of each earlier section as it stands in the summary (its header included)
 * @param header - tokens of the header a new section adds
 */
export function planSections(
  earlier: readonly SummarySection[],
  room: number,
  tokens: readonly number[],
  header: number,
): SectionPlan {
  const total = tokens.reduce((sum, count) => sum + count, 0);
  if (room < MIN_ROOM_FOR_SECTIONS) {
    // Rolled, the summary still says what its facts went through, where its header leaves room enough.
    const carried = earlier.length > 0 && room >= MIN_ROOM_FOR_SECTIONS / 2;
    return {
      kept: [],
      merging: earlier.slice(),
      budget: Math.max(1, room),
      depth: carried ? Math.max(...earlier.map((section) => section.depth)) + 1 : 1,
      covers: carried ? earlier.reduce((sum, section) => sum + section.covers, 1) : 1,
    };
  }
  // The first summary takes the whole room: a summarizer that fills it merges with the next one.
  if (earlier.length === 0) return { kept: [], merging: [], budget: Math.max(1, room), depth: 1, covers: 1 };
  const floor = smallestAsk(room);
  const half = (left: number) => Math.max(1, Math.min(left, Math.max(Math.floor(left / 2), floor)));
  const enough = (left: number) => left >= floor;
  if (enough(room - total - header))
    return { kept: earlier.slice(), merging: [], budget: half(room - total - header), depth: 1, covers: 1 };
  let keptTokens = total;
  let first = earlier.length;
  let deepest = 0;
  do {
    first--;
    keptTokens -= tokens[first] as number;
    deepest = Math.max(deepest, (earlier[first] as SummarySection).depth);
  } while (
    first > 0 &&
    ((earlier[first - 1] as SummarySection).depth <= deepest || !enough(room - keptTokens - header))
  );
  const merging = earlier.slice(first);
  const depth = deepest + 1;
  const covers = merging.reduce((sum, section) => sum + section.covers, 1);
  // A merge no deeper than a balanced one of as many compactions (depth ≤ log₂ covers + 1) may take
  // all that stays, as a rolled summary would: its facts are within the bound however it is merged
  // next. A deeper one takes half, and leaves the room for the sections that will catch up with it.
  const left = room - keptTokens - header;
  return {
    kept: earlier.slice(0, first),
    merging,
    budget: depth <= Math.log2(covers) + 1 ? Math.max(1, left) : half(left),
    depth,
    covers,
  };
}

/** Every earlier section merged with the new one, which takes the whole room. */
export function mergedSections(earlier: readonly SummarySection[], room: number): SectionPlan {
  const depth = earlier.reduce((deepest, section) => Math.max(deepest, section.depth), 0) + 1;
  return {
    kept: [],
    merging: earlier.slice(),
    budget: Math.max(1, room),
    depth,
    covers: earlier.reduce((sum, section) => sum + section.covers, 1),
  };
}
