import { CompactionError } from "../ground/errors.js";
import type { Dialect } from "../dialects/dialect.js";
import { providerCompactionOf } from "../dialects/provider-compaction.js";
import { findToolPairProblems } from "../dialects/tool-pairs.js";
import { systemPromptLength } from "../plan/split-at-user-boundary.js";
import type { EnginePlan } from "../plan/plan.js";
import type { AnyMessage, SummaryReplacement } from "../ground/types.js";

/** True for what `summarize` returns when it hands back messages instead of a text. */
export function isReplacement(value: unknown): value is SummaryReplacement {
  return typeof value === "object" && value !== null && !Array.isArray(value) && Object.hasOwn(value, "messages");
}

/** What each broken pair is, as an error names it. */
const PAIR_PROBLEMS = {
  "missing-result": "a tool call without its result",
  "orphan-result": "a tool result without its call",
  "duplicate-result": "a second result for one tool call",
  "duplicate-call": "a second tool call with one id",
} as const;

/** A tool call id as an error quotes it: ids come from a model, so a long one is cut. */
const shortId = (id: string) => (id.length > 40 ? `${Array.from(id).slice(0, 40).join("")}…` : id);

/**
 * The replacement as `summarize` returned it, its messages the very same objects; `INVALID_SUMMARY`
 * for any other shape, and for messages whose tool calls and results are not in whole pairs: a
 * native backend's reply is placed and stored as returned, so a call left unanswered would be sent
 * and replayed on every later request.
 */
export function checkedReplacement(value: SummaryReplacement): SummaryReplacement {
  const { messages, text } = value;
  if (
    !Array.isArray(messages) ||
    messages.length === 0 ||
    !messages.every((message) => typeof message === "object" && message !== null && !Array.isArray(message))
  ) {
    throw new CompactionError(
      "INVALID_SUMMARY",
      "summarize returned `{ messages }` whose `messages` is not a non-empty list of messages; the transcript was left as it was",
    );
  }
  if (text !== undefined && typeof text !== "string") {
    throw new CompactionError(
      "INVALID_SUMMARY",
      `summarize returned \`{ messages, text }\` whose \`text\` is ${typeof text}, not a string; the transcript was left as it was`,
    );
  }
  const broken = findToolPairProblems(messages)[0];
  if (broken !== undefined) {
    throw new CompactionError(
      "INVALID_SUMMARY",
      `summarize returned replacement messages holding ${PAIR_PROBLEMS[broken.kind]} (id \`${shortId(broken.id)}\`, replacement message ${broken.index}), which the provider would refuse; the transcript was left as it was`,
    );
  }
  const { madeBy } = value;
  const known =
    typeof madeBy === "object" &&
    madeBy !== null &&
    typeof madeBy.provider === "string" &&
    typeof madeBy.model === "string";
  return {
    messages: messages.slice(),
    ...(text === undefined ? {} : { text }),
    ...(known ? { madeBy: { provider: madeBy.provider, model: madeBy.model } } : {}),
  };
}

/** The readable text of the provider compaction the head ends with (Anthropic's `content`), for `previousSummary`. */
export function providerSummaryIn(head: readonly object[], dialect: Dialect): string | undefined {
  const last = head.at(-1);
  return last === undefined ? undefined : providerCompactionOf(last, dialect)?.text;
}

/** Where a summary goes: the head kept before it, the messages added, and whether they are a replacement. */
export interface PlacedSummary<M extends AnyMessage> {
  head: M[];
  added: object[];
  replacement: SummaryReplacement | undefined;
}

/**
 * Places what `summarize` returned. A text becomes the summary message (`makeSummary`). A
 * replacement goes in exactly as given. The provider compaction the head may end with gives way
 * to a newer compaction that can carry it: a replacement that holds a provider compaction of its
 * own (it was made from the head and the older part together), or a text summary when the old one
 * was readable and so was handed over as `previousSummary`. An unreadable one stays otherwise.
 */
export function placeSummary<M extends AnyMessage>(
  summary: string | SummaryReplacement,
  plan: EnginePlan<M>,
  makeSummary: (text: string) => object,
): PlacedSummary<M> {
  const promptEnd = systemPromptLength(plan.head, plan.tokens.formats);
  const inForce =
    promptEnd < plan.head.length ? providerCompactionOf(plan.head.at(-1) as object, plan.dialect) : undefined;
  if (typeof summary === "string") {
    const head = inForce?.text !== undefined ? plan.head.slice(0, promptEnd) : plan.head;
    return { head, added: [makeSummary(summary)], replacement: undefined };
  }
  const native = summary.messages.some((message) => providerCompactionOf(message, plan.dialect) !== undefined);
  const head = native && inForce !== undefined ? plan.head.slice(0, promptEnd) : plan.head;
  checkReplacementSize(summary.messages as M[], plan, plan.head.slice(head.length));
  return { head, added: summary.messages.slice(), replacement: summary };
}

/** The rules a summary meets, for replacement messages: within the room for a summary, and smaller than what they replace. */
function checkReplacementSize<M extends AnyMessage>(messages: M[], plan: EnginePlan<M>, supersededHead: M[]): void {
  const tokens = Math.ceil(plan.tokens.countList(messages));
  if (tokens > plan.summaryLimit) {
    throw new CompactionError(
      "INVALID_SUMMARY",
      `summarize returned replacement messages of ${tokens} tokens, over the limit of ${plan.summaryLimit} for a summary (\`context.maxSummaryTokens\`); the transcript was left as it was`,
    );
  }
  const replaced = Math.ceil(
    (plan.olderTokens ?? plan.tokens.countList(plan.older)) +
      (supersededHead.length === 0 ? 0 : plan.tokens.countList(supersededHead)),
  );
  if (tokens >= replaced) {
    throw new CompactionError(
      "INVALID_SUMMARY",
      `summarize returned replacement messages of ${tokens} tokens, not smaller than the ${replaced} tokens they replace; the transcript was left as it was`,
    );
  }
}
