// A summary is frozen once written: the next compaction appends a section for the range it
// evicts after the earlier sections, whose bytes stay as they were, so the provider's prefix
// cache keeps them and no fact is summarized again at every compaction. Sections of the one
// summary message are told apart by a header line that also says how many compactions a section
// stands for and how many summarizations its facts went through (its depth), which the next
// compaction reads to choose what to merge (see `hook/summary-levels.ts`).

/** One section of a summary. */
export interface SummarySection {
  /** What the summarizer wrote. */
  text: string;
  /** Summarizations the facts of this section went through: 1 for a summary of messages, one more for each merge. */
  depth: number;
  /** Compactions the section stands for: 1, or the sum of those it merged, plus one for the range it added. */
  covers: number;
}

const HEADER_OPENING = "[Summary part: ";
/** The longest header: the opening, two counts of seven digits and the words between them. */
const HEADER_MAX_LENGTH = 80;
/** Larger counts are no summary this library wrote: read as the largest. */
const MAX_COUNT = 1_000_000;

/** The header line of a section: what the model reads before it, and what the next compaction reads back. */
function headerOf({ covers, depth }: Pick<SummarySection, "covers" | "depth">): string {
  return `${HEADER_OPENING}${covers} ${covers === 1 ? "compaction" : "compactions"}, depth ${depth}]`;
}

/** A first section of one compaction's messages needs no header: such a summary reads as summaries always did. */
const isPlain = (section: Pick<SummarySection, "covers" | "depth">): boolean =>
  section.covers === 1 && section.depth === 1;

/**
 * The summary's text: its sections in order, each after the next with a blank line and its header.
 * A header inside a summarizer's text is written with a space before its colon, so that it is
 * never read back as a section's start.
 *
 * @example
 * joinSections([{ text: "A", depth: 1, covers: 1 }, { text: "B", depth: 2, covers: 3 }]);
 * // "A\n\n[Summary part: 3 compactions, depth 2]\nB"
 */
export function joinSections(sections: readonly SummarySection[]): string {
  let joined = "";
  sections.forEach((section, index) => {
    const text = section.text.split(HEADER_OPENING).join("[Summary part : ");
    if (index === 0) joined = isPlain(section) ? text : `${headerOf(section)}\n${text}`;
    else joined += `\n\n${headerOf(section)}\n${text}`;
  });
  return joined;
}

/** A section as it stands after another in the summary, its header included: what it takes there. */
export function withHeader(section: SummarySection): string {
  return `${headerOf(section)}\n${section.text}`;
}

/**
 * The sections of a summary's text (without its prefix, seal and archive line), in order. A text
 * with no header is one section of one compaction. Linear in the text: one scan for the opening.
 */
export function sectionsOf(text: string): SummarySection[] {
  const sections: SummarySection[] = [];
  let depth = 1;
  let covers = 1;
  let start = 0;
  const first = headerAt(text, 0);
  if (first !== undefined) ({ depth, covers, end: start } = first);
  let from = start;
  for (;;) {
    const found = text.indexOf(`\n\n${HEADER_OPENING}`, from);
    const header = found < 0 ? undefined : headerAt(text, found + 2);
    if (found < 0) {
      sections.push({ text: text.slice(start), depth, covers });
      return sections;
    }
    if (header === undefined) {
      from = found + 2;
      continue;
    }
    sections.push({ text: text.slice(start, found), depth, covers });
    ({ depth, covers, end: start } = header);
    from = start;
  }
}

/** The header starting at `index`, with the index after its line break; undefined when none starts there. */
function headerAt(text: string, index: number): { depth: number; covers: number; end: number } | undefined {
  if (!text.startsWith(HEADER_OPENING, index)) return undefined;
  // A header is short: only its own few characters are searched for its end, so that many openings
  // without one cost no more than the text's length.
  const found = text.slice(index, index + HEADER_MAX_LENGTH).indexOf("]\n");
  if (found < 0) return undefined;
  const close = index + found;
  const match = /^(\d{1,7}) compactions?, depth (\d{1,7})$/.exec(text.slice(index + HEADER_OPENING.length, close));
  if (match === null) return undefined;
  const count = (digits: string) => Math.min(MAX_COUNT, Math.max(1, Number(digits)));
  return { covers: count(match[1] as string), depth: count(match[2] as string), end: close + 2 };
}
