import type { Settings } from "../ground/options.js";
import type { AnyMessage } from "../ground/types.js";
import type { EnginePlan } from "../plan/plan.js";
import { joinSections, sectionsOf, withHeader } from "../text/summary-sections.js";
import { mergedSections, planSections, type SectionPlan } from "./summary-levels.js";

/** Makes the summary message around a text (see the engine's `summaryMaker`). */
interface SummaryMaker {
  make(text: string): object;
}

/**
 * How the summary joins the earlier ones: the older messages it is made of (without the library's
 * own), what it carries forward, and the message that holds the earlier sections kept as they are,
 * then the new one.
 */
export interface SummarySections<M extends AnyMessage> {
  plan: SectionPlan;
  /** The messages this summary is made of: `older` without the earlier summary and its reminder. */
  older: M[];
  /** The library's own messages among `older` (`context.earlier`). */
  earlier: M[];
  /** The merged sections' texts joined, or, without a summary of this library's before, a provider compaction's text. */
  previousSummary: string | undefined;
  /** The earlier summary's text in full (without its suffix): what a shadow of a replacement of everything carries forward. */
  earlierText: string | undefined;
  /** The kept sections' text (`context.keptSummary`), when any stay. */
  keptSummary: string | undefined;
  /** The summary message holding the kept sections, then `text` as the new one. */
  make(text: string): object;
}

/** The longest header a section can have: what a new section's header is planned with before its counts are known. */
const LONGEST_HEADER = { text: "", depth: 9_999_999, covers: 9_999_999 };

/**
 * Reads the earlier summary's sections and chooses which of them the new summary merges (see
 * `planSections`); each section is counted as it stands in the message, in the text budget's units.
 */
export function summarySections<M extends AnyMessage>(
  plan: EnginePlan<M>,
  settings: Settings<M>,
  /**
   * `room`: what the whole summary's text may take (`summaryTextBudget`); `mergeAll`: every earlier
   * section merges with the new one, which takes the whole room (a section refused for its size is
   * asked again so, once).
   */
  {
    summaryMessage,
    fallbackText,
    room,
    mergeAll = false,
  }: { summaryMessage: SummaryMaker; fallbackText: string | undefined; room: number; mergeAll?: boolean },
): SummarySections<M> {
  const earlierText =
    plan.previousSummary === undefined
      ? undefined
      : (settings.withoutSummarySuffix?.(plan.previousSummary) ?? plan.previousSummary);
  const earlier = earlierText === undefined ? [] : sectionsOf(earlierText);
  // Counted only when there are earlier sections: a first summary costs the counter nothing more.
  let textTokens = (_text: string) => 0;
  if (earlier.length > 0) {
    const framing = plan.tokens.countList([summaryMessage.make("") as M]);
    const scale = Math.max(1, plan.tokens.scale);
    textTokens = (text) => Math.ceil((plan.tokens.countList([summaryMessage.make(text) as M]) - framing) / scale);
  }
  // Each section as it stands: the first as it opens the text, a later one after its blank line.
  const counts = earlier.map((section, index) =>
    textTokens(index === 0 ? joinSections([section]) : `\n\n${withHeader(section)}`),
  );
  const planned = mergeAll
    ? mergedSections(earlier, room)
    : planSections(earlier, room, counts, textTokens(`\n\n${withHeader(LONGEST_HEADER)}`));
  const { kept, depth, covers } = planned;
  // The room the new section has, counted on the summary as it will be written (the kept sections,
  // then the new one's header), less a token for the rounding of the text it adds: a summary that
  // takes exactly `context.maxSummaryTokens` fits.
  const left =
    earlier.length === 0 ? planned.budget : room - textTokens(joinSections([...kept, { text: "", depth, covers }])) - 1;
  const sectionPlan = { ...planned, budget: Math.max(1, Math.min(planned.budget, left)) };
  const merging = sectionPlan.merging.map((section) => section.text);
  return {
    plan: sectionPlan,
    older: plan.older.filter((message) => !plan.made.has(message)),
    earlier: plan.older.filter((message) => plan.made.has(message)),
    previousSummary: earlierText === undefined ? fallbackText : merging.length > 0 ? merging.join("\n\n") : undefined,
    earlierText: earlierText ?? fallbackText,
    keptSummary: kept.length === 0 ? undefined : joinSections(kept),
    make: (text) => summaryMessage.make(joinSections([...kept, { text, depth, covers }])),
  };
}
