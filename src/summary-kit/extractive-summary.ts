import { utf8ByteLength } from "../counting/utf8-length.js";
import { countWordPieces } from "../counting/word-pieces.js";
import { messagesToSummarize } from "./build-summary-prompt.js";
import { saidLinesOf, type SaidKind } from "./said-lines.js";
import { describeMessage } from "../dialects/describe-message.js";
import { SUMMARY_PREFIX } from "../ground/constants.js";
import type { AnyMessage } from "../ground/types.js";
import { cutPointAfter, cutPointBefore, headOf, tailOf } from "../text/cut-points.js";
import { isSecretName, isSecretSetting, redactSummarySecrets, summarySecretTest } from "../text/redact-secrets.js";
import { scanIdentifiers } from "../text/scan-identifiers.js";
import { expectedMessage } from "../ground/describe-value.js";
import { rejectUnknownKeys } from "../ground/unknown-keys.js";

/** Options of `extractiveSummary`. */
export interface ExtractiveSummaryOptions {
  /**
   * The longest summary, in tokens as `estimateTokens` counts text in a message (UTF-8 bytes / 4 of
   * its JSON string), and never below its word pieces. A fraction is rounded down: a count
   * calibrated by the provider's `usage` is seldom whole.
   */
  maxTokens: number;
  /**
   * The earlier summary, carried forward first.
   * @default none
   */
  previousSummary?: string | undefined;
  /**
   * The earlier summary that stays in the request before this one (`context.keptSummary`): what it
   * already says is not said again, so the room goes to what it does not hold.
   * @default none
   */
  keptSummary?: string | undefined;
}

// Counted as the estimate counts the text inside a message (JSON-escaped: a newline is two bytes),
// and never below its word pieces: a list of ids and amounts is far denser in tokens than bytes / 4
// says, and a summary that fills its budget by bytes alone would overflow the window it was made for.
const tokensOf = (text: string): number =>
  Math.max(Math.ceil(utf8ByteLength(JSON.stringify(text)) / 4), countWordPieces(text));

/**
 * The longest start of `text` that takes at most `tokens` as `tokensOf` counts it, cut between
 * whole characters. Found by halving, counted each time, so that a script of many bytes a character
 * (Japanese, emoji) loses only what it must: a guess of 4 characters a token would cut three
 * times too much of it.
 */
function startWithin(text: string, tokens: number): string {
  const whole = tokensOf(text);
  if (whole <= tokens) return text;
  let fits = 0;
  let over = text.length;
  // Most often a few tokens over: four characters a token off the end is tried first, so that
  // the halving runs over that last stretch, not the whole text.
  const guess = cutPointBefore(text, text.length - 4 * (whole - tokens));
  if (guess > 0 && tokensOf(text.slice(0, guess)) <= tokens) fits = guess;
  else if (guess > 0) over = guess;
  while (over - fits > 1) {
    const half = (fits + over) >>> 1;
    let at = cutPointBefore(text, half);
    if (at <= fits) at = cutPointAfter(text, half);
    if (at <= fits || at >= over) break;
    if (tokensOf(text.slice(0, at)) <= tokens) fits = at;
    else over = at;
  }
  return text.slice(0, fits);
}

/**
 * One line of text, shortened to `max` characters with an ellipsis, its secrets redacted. Only a
 * window at the start is read: enough to hold `max` characters after whitespace is collapsed, and
 * any secret that starts within them whole.
 */
function short(text: string, max: number): string {
  const window = headOf(text, max * 4 + 600);
  const flat = redactSummarySecrets(window.replace(/\s+/g, " ").trim());
  return flat.length <= max ? flat : `${headOf(flat, Math.max(0, max - 1))}…`;
}

/**
 * How the output of a tool that failed opens, when its format has no flag for a failure (OpenAI
 * chat, the Responses API) or the tool said so in text: `Error: …`, `TypeError: …`, `error[E0308]: …`,
 * `Traceback (most recent call last):`, `fatal: …`, `panic: …`, `npm ERR! …`, `FAILED …`,
 * `Command failed …`, `Permission denied`, `No such file or directory`, a leading `[ERROR]` or `❌`. Read at its start
 * only: a file or a log that mentions an error somewhere (Go's `func run() error`) is no failure.
 */
const errorOpening =
  /^\s*(?:[❌✗✖]|[^\p{L}\p{N}]{0,4}(?:[\p{L}\p{N}_.]*(?:error|exception)\b|traceback\b|fatal\b|panic\b|npm err!|(?:\p{L}+ )?fail(?:ed|ure)?\b|permission denied|access denied|not found\b|no such file|command not found|invalid\b|exit (?:code|status):? ?[1-9]))/iu;

/**
 * A summary made without a model: deterministic, within `maxTokens`, from what the messages say
 * in any dialect. First what the user told the agent, quoted sentence by sentence: the rules they
 * set ("never", "always", "must", "do not", "a red line", in fifteen languages), their decisions (an
 * override such as "scratch that, let's instead …" replaces the decision it takes back), who owns
 * what, their goals and open tasks; chit-chat is left out. Then it ranks facts, not characters: the
 * identifiers the user and the agent wrote (their messages, the tool calls' arguments) first, then
 * those of tool results the agent went on to act on, then the rest, newest first within each; each
 * with the few words that say what it is (`order_id #W2378156`, `amount 250`, read by key from JSON
 * results). Around them: the user's requests quoted, and the errors seen (the results that failed:
 * flagged so by their format, or opening as a failure's text does); what is left of the budget goes
 * to facts. Within `maxTokens` by its own count in any script, and never empty where
 * there is something to summarize; every quote is cut between whole characters. A rolled summary
 * of its own merges in section by section, its rules and decisions carried forward first; any other
 * previous summary is carried forward as one block. Secrets are redacted. Usable as a `summarize`
 * that needs no model, and what `onError: "fallback"` uses when `summarize` fails.
 *
 * @param older - the messages to summarize; any array (what cannot be read is skipped)
 * @param options - `maxTokens`, `previousSummary` to carry forward, and `keptSummary`, what stays before it and need not be said again
 * @returns the summary text
 * @example
 * ```ts
 * const beforeLlm = compactor({ maxTokens: 100_000, summarize: (older, { maxSummaryTokens, previousSummary, keptSummary }) => extractiveSummary(older, { maxTokens: maxSummaryTokens, previousSummary, keptSummary }) });
 * ```
 */
export function extractiveSummary(older: readonly AnyMessage[], options: ExtractiveSummaryOptions): string {
  if (!Array.isArray(older)) throw new TypeError(expectedMessage("older", "an array of messages", older));
  if (typeof options !== "object" || options === null)
    throw new TypeError(expectedMessage("options", "an object", options));
  rejectUnknownKeys(options, ["maxTokens", "previousSummary", "keptSummary"], "");
  const { maxTokens: requested, previousSummary, keptSummary } = options;
  if (keptSummary !== undefined && typeof keptSummary !== "string")
    throw new TypeError(expectedMessage("keptSummary", "a string", keptSummary));
  if (typeof requested !== "number" || !Number.isFinite(requested) || requested < 1) {
    throw new (typeof requested === "number" ? RangeError : TypeError)(
      expectedMessage("maxTokens", "a finite number from 1 and up (a fraction is rounded down)", requested),
    );
  }
  const maxTokens = Math.floor(requested);

  const requests: string[] = [];
  const errors: string[] = [];
  const facts: Fact[] = [];
  const names = new Map<string, string>();
  // Where the agent last wrote each identifier or word: a result's value the agent wrote after it is one it acted on.
  const agentWrote = new Map<string, number>();
  // Where the agent last spoke or called a tool: a result after it is one the agent has not yet had the turn to act on.
  let lastAgentTurn = -1;
  let lastSaid: string | undefined;
  // How often each tool was called, and the newest result: what stands in when nothing else is new.
  const calls = new Map<string, number>();
  let lastResult: string | undefined;
  const earlier = earlierSections(previousSummary);
  // What the user set, decided, gave to people and left open, a section a kind (see `said-lines.ts`):
  // the earlier summary's lines first (carried forward before anything new), then the new ones.
  const saidSection = (title: string, share: number): Section => {
    const lines = [...(earlier.sections.get(title) ?? [])];
    return { title, lines, carried: lines.length, share };
  };
  const said: Partial<Record<SaidKind, Section>> = {
    rule: saidSection(RULES, 0.12),
    decision: saidSection(DECISIONS, 0.08),
    owner: saidSection(PEOPLE, 0.04),
    task: saidSection(TASKS, 0.04),
  };
  const saidSections = Object.values(said);
  // A quote the summary kept before this one already shows is not said again; an override takes the
  // place of the decision it takes back (the newest one before it).
  const say = (kind: SaidKind, line: string, overrides: boolean): void => {
    const section = said[kind];
    if (section === undefined || (keptSummary?.includes(line.slice(2)) ?? false)) return;
    if (overrides) {
      section.lines.pop();
      section.carried = Math.min(section.carried, section.lines.length);
    }
    section.lines.push(line);
  };
  // The earlier summary comes in as `previousSummary`: the message that holds it is not read again.
  const messages = messagesToSummarize(older, { previousSummary });
  for (let order = 0; order < messages.length; order++) {
    const message = messages[order];
    if (typeof message !== "object" || message === null) continue;
    let view: ReturnType<typeof describeMessage>;
    try {
      view = describeMessage(message);
    } catch {
      continue;
    }
    for (const part of view.parts) {
      if (part.kind === "text" && (view.role === "user" || view.role === "assistant")) {
        if (view.role === "user") {
          const rest: string[] = [];
          let task = false;
          for (const line of saidLinesOf(part.text)) {
            if (line.kind === "request" || line.kind === "task") rest.push(line.text);
            // A decision that takes back the one before it says so, where that one is not shown beside it.
            else
              say(
                line.kind,
                `- "${redactSummarySecrets(line.text)}"${line.overrides ? " (replaces the earlier one)" : ""}`,
                line.overrides,
              );
            task ||= line.kind === "task";
          }
          // What is left of the message once its rules, decisions, people and chit-chat are taken
          // out, whole: under goals and open tasks when it names one, else among the requests.
          if (rest.length > 0) {
            const quote = `- "${short(rest.join(" "), task ? 320 : 200)}"`;
            if (task) say("task", quote, false);
            else requests.push(quote);
          }
        } else {
          lastSaid = `- agent: "${short(part.text, 200)}"`;
        }
        for (const fact of textFacts(part.text, view.role === "user" ? "user" : "agent", 0, order)) facts.push(fact);
        if (view.role === "assistant") {
          noteWords(part.text, order, agentWrote);
          lastAgentTurn = order;
        }
      } else if (part.kind === "call") {
        try {
          for (const fact of valueFacts(part.input, `${part.name ?? "tool"}()`, 0, order)) {
            facts.push(fact);
            agentWrote.set(fact.identifier, order);
          }
        } catch {
          // arguments that cannot be walked (a throwing getter) give no facts
        }
        lastAgentTurn = order;
        calls.set(part.name ?? "tool", (calls.get(part.name ?? "tool") ?? 0) + 1);
        if (part.id !== undefined && part.name !== undefined) names.set(part.id, part.name);
      } else if (part.kind === "result") {
        const name = part.name ?? (part.id ? names.get(part.id) : undefined) ?? "tool";
        // Filed under errors when the tool failed: its format's flag says so, or its output opens as a failure's does.
        if (part.isError || errorOpening.test(headOf(part.output.trimStart(), 200)))
          errors.push(`- ${name}: ${short(part.output, 160)}`);
        facts.push(...resultFacts(part.output, `${name} result`, order));
        lastResult = `${name}: "${short(part.output, 120)}"`;
      }
    }
  }
  // A result's values rank with what the agent wrote when the agent went on to use them (in a call
  // or to the user), half a tier below when the agent has not yet had its turn after the result (a
  // long search result must not push out what was used), and a value it passed over ranks below.
  // Not where in the result the value stood.
  for (const fact of facts) {
    if (fact.tier < 2) continue;
    const wrote = agentWrote.get(fact.identifier) ?? agentWrote.get(withoutSign(fact.identifier)) ?? -1;
    if (wrote > fact.order) fact.tier--;
    else if (fact.order > lastAgentTurn) fact.tier -= 0.5;
  }
  // What the summary kept before this one already holds is not listed again: the request shows it.
  if (keptSummary?.trim()) {
    const shown = new Set(
      [...earlierSections(keptSummary).facts, ...textFacts(keptSummary, "kept", 0, -1)].map((fact) => fact.identifier),
    );
    // Filtered in place: a spread of a long list of facts into one call would overflow the stack.
    let fresh = 0;
    for (const fact of facts) if (!shown.has(fact.identifier)) facts[fresh++] = fact;
    facts.length = fresh;
  }
  // The earlier summary's facts rank with the new ones by where they came from; a fact said again
  // now is counted once, at its newest.
  facts.push(...earlier.facts);
  const mentions = new Map<string, number>();
  // A fact the earlier summary carried has been kept once already: it counts as said twice.
  for (const fact of facts)
    mentions.set(fact.identifier, (mentions.get(fact.identifier) ?? 0) + (fact.order === -1 ? 2 : 1));

  // Each section in turn takes up to its share: first what the user set, decided, gave to people and
  // left open (each kind its share of the whole room, and what an earlier summary kept of it first),
  // then the requests and errors, each a share of what is left. A rolled summary of this
  // function's own merges section by section; another one is kept as a block. At a budget of a few
  // dozen tokens the facts take it all: headings and quotes would.
  const factsOnly = maxTokens < SECTIONS_FROM;
  // Said once: a summary kept before this one that says it already is the same summary's start.
  const header = maxTokens >= HEADER_FROM && !(keptSummary?.includes(HEADER) ?? false) ? HEADER : undefined;
  // Below that, down to a few dozen tokens, what the user required, forbade or decided still has
  // its sections: "never disable TLS verification" says more than `user: TLS`.
  const sections: Section[] = factsOnly
    ? maxTokens >= SAID_FROM
      ? saidSections
      : []
    : [
        { title: EARLIER, lines: earlier.foreign === undefined ? [] : [earlier.foreign], carried: 0, share: 0.35 },
        ...saidSections,
        { title: REQUESTS, lines: [...(earlier.sections.get(REQUESTS) ?? []), ...requests], carried: 0, share: 0.15 },
        { title: ERRORS, lines: [...(earlier.sections.get(ERRORS) ?? []), ...errors], carried: 0, share: 0.05 },
      ];
  let left = maxTokens - (header === undefined ? 0 : tokensOf(`${header}\n\n`));
  const whole = left;
  const chosen = sections.map(() => new Set<number>());
  /**
   * Takes lines of section `at` within `room` tokens, its heading counted with its first line, and
   * returns the tokens taken. The lines carried from the earlier summary go first, oldest first
   * (what was kept once is kept again), then the new ones, newest first; a line that does not fit
   * is passed over for a shorter one.
   */
  const take = (at: number, room: number): number => {
    const { title, lines, carried } = sections[at] as Section;
    const taken = chosen[at] as Set<number>;
    let spent = 0;
    for (let rank = 0; rank < lines.length; rank++) {
      const index = rank < carried ? rank : lines.length - 1 - rank + carried;
      const cost = tokensOf(`${lines[index] as string}\n`) + (taken.size === 0 ? tokensOf(`\n\n${title}:`) + 2 : 0);
      if (taken.has(index) || spent + cost > room) continue;
      taken.add(index);
      spent += cost;
    }
    return spent;
  };
  let foreign: string | undefined;
  for (const [at, { title, lines, carried, share }] of sections.entries()) {
    if (lines.length === 0 || left <= 0) continue;
    const heading = tokensOf(`\n\n${title}:`);
    if (title === EARLIER) {
      // A previous summary not written here is one block: cut at its end when it does not fit whole.
      const room = Math.floor(left * share) - heading;
      const text = redactSummarySecrets(headOf(lines[0] as string, room * 4 + 600));
      if (room > 2) {
        foreign = `${title}:\n${room >= tokensOf(text) ? text : `${startWithin(text, room - 1)}…`}`;
        left -= tokensOf(`\n\n${foreign}`);
      }
      continue;
    }
    // The user's newest request is quoted whenever it fits a third of what is left; what an earlier
    // summary kept of a section is kept again, beyond its share if it must (up to most of the room).
    const newest = title === REQUESTS ? tokensOf(`${lines.at(-1) as string}\n`) : 0;
    const kept =
      carried === 0 ? 0 : lines.slice(0, carried).reduce((sum, line) => sum + tokensOf(`${line}\n`), heading + 2);
    const ownShare = saidSections.includes(sections[at] as Section)
      ? Math.min(left, Math.floor(whole * share))
      : Math.floor(left * share);
    left -= take(
      at,
      Math.max(ownShare, Math.min(kept, Math.floor(left * 0.7)), newest <= left / 3 ? newest + heading : 0),
    );
  }
  const factsHeading = tokensOf(`\n\n${FACTS}:`);
  // Ranked by tier, then how often said, then newest, then as found.
  const timesSaid = (fact: Fact): number => Math.min(3, mentions.get(fact.identifier) ?? 1);
  const ranked = facts
    .map((fact, index) => ({ fact, index }))
    .sort(
      (a, b) =>
        a.fact.tier - b.fact.tier ||
        timesSaid(b.fact) - timesSaid(a.fact) ||
        b.fact.order - a.fact.order ||
        a.index - b.index,
    );
  const picked: typeof ranked = [];
  const taken = new Set<string>();
  const sources = new Set<string>();
  const keys = new Set<string>();
  const quoted = sections
    .map(({ lines }, at) => [...(chosen[at] as Set<number>)].map((index) => lines[index]).join("\n"))
    .join("\n");
  /**
   * Takes facts of a tier up to `maxTier` by rank within `room` tokens, once per identifier and not
   * where a quote above holds what the user or the agent wrote; returns the tokens taken.
   */
  const takeFacts = (maxTier: number, room: number): number => {
    let spent = 0;
    for (const entry of ranked) {
      const { identifier, item, source, tier } = entry.fact;
      if (
        tier > maxTier ||
        taken.has(identifier) ||
        ((source === "user" || source === "agent") && quoted.includes(identifier))
      )
        continue;
      // A value whose key its line already shows costs the value alone: `flight_number HAT035, HAT066`.
      const key = keyOf(entry.fact);
      const cost = keys.has(`${source}\n${key}`)
        ? tokensOf(`${identifier}, `)
        : tokensOf(`${item}; `) + (sources.has(source) ? 0 : tokensOf(`\n- ${source}: `));
      if (spent + cost > room) continue;
      taken.add(identifier);
      sources.add(source);
      if (key !== undefined) keys.add(`${source}\n${key}`);
      picked.push(entry);
      spent += cost;
    }
    return spent;
  };
  // The facts the user and the agent wrote or used rank above what is left of the room going to
  // what was said; the values of results nobody acted on come after it. Older calls do not fill the
  // rest, nor do the agent's words: a summary larger than its ranked content brings the next
  // compaction sooner, at a smaller room (tau-bench at a window of 40%: 88.5% of needed facts
  // visible with such a fill, 94.1% without).
  if (left > factsHeading + 2) left -= takeFacts(1.5, left - factsHeading);
  for (const at of sections.keys())
    if (saidSections.includes(sections[at] as Section) && left > 4) left -= take(at, left);
  if (left > 4) left -= takeFacts(2, left - (picked.length === 0 ? factsHeading : 0));
  if (picked.length > 0) left -= factsHeading;
  // What is still left goes to the user's older requests, in their own words, up to half the room
  // in all: more would bring the next compaction sooner than what it holds is worth.
  const requestsAt = sections.findIndex(({ title }) => title === REQUESTS);
  if (requestsAt !== -1 && left > 4) {
    const { lines } = sections[requestsAt] as Section;
    const spent = [...(chosen[requestsAt] as Set<number>)].reduce(
      (sum, index) => sum + tokensOf(`${lines[index] as string}\n`),
      0,
    );
    left -= take(requestsAt, Math.min(left, Math.floor(whole / 2) - spent));
  }
  const blocks = sections.flatMap(({ title, lines }, at) => {
    if (title === EARLIER) return foreign === undefined ? [] : [foreign];
    const kept = [...(chosen[at] as Set<number>)].sort((a, b) => a - b);
    const omitted = lines.length - kept.length;
    return kept.length === 0
      ? []
      : [
          `${title}:${omitted > 0 ? ` (${omitted} earlier left out)` : ""}\n${kept.map((index) => lines[index]).join("\n")}`,
        ];
  });
  // Each piece was counted alone, each rounded up: the whole text is counted again, and what that
  // leaves goes to more facts (at 25%, 65% of tau2-bench's summary room was left so, and 30% of
  // tau-bench's), as long as the whole still fits.
  const write = (): string => {
    const factBlock = factsBlock(FACTS, picked);
    const all = factBlock === undefined ? blocks : [...blocks, factBlock];
    // Nothing ranked fits a budget this small, or nothing is new beside the summary kept before: the
    // newest words said stand in, cut to it, or else the tools called and the newest result.
    const toolsCalled = [...calls].map(([name, times]) => (times > 1 ? `${name} ×${times}` : name)).join(", ");
    const newest =
      requests.at(-1) ??
      lastSaid ??
      (toolsCalled === "" && lastResult === undefined
        ? undefined
        : `- ${[toolsCalled && `called ${toolsCalled}`, lastResult && `newest result ${lastResult}`].filter(Boolean).join("; ")}`);
    if (all.length === 0 && newest !== undefined) all.push(newest);
    return (header === undefined ? all : [header, ...all]).join("\n\n");
  };
  let text = write();
  const slack = maxTokens - tokensOf(text) - (picked.length === 0 ? factsHeading : 0);
  if (slack > 4 && takeFacts(3, slack) > 0) {
    const more = write();
    if (tokensOf(more) <= maxTokens) text = more;
  }
  // Rounding across lines may leave it a few tokens over: the end gives way, as much as its own count says.
  text = startWithin(text, maxTokens);
  return text.startsWith(SUMMARY_PREFIX) ? text.slice(SUMMARY_PREFIX.length) : text;
}

/** Budgets from which the summary says it was made without a model, has every section, and has the sections of what the user said. */
const HEADER_FROM = 320;
const SECTIONS_FROM = 80;
const SAID_FROM = 40;
const HEADER = "(A summary made without a model, from the messages themselves.)";
const EARLIER = "Earlier summary";
const REQUESTS = "User requests";
const ERRORS = "Errors";
const RULES = "Rules the user set";
const DECISIONS = "Decisions";
const PEOPLE = "People and roles";
const TASKS = "Goals and open tasks";
const FACTS = "Facts";
/** The titles of this function's own sections: a previous summary that opens with one is merged, not nested. */
const OWN_TITLES = new Set([RULES, DECISIONS, PEOPLE, TASKS, REQUESTS, ERRORS, FACTS]);

/** A section of the summary: its lines in order, the first `carried` of them from the earlier summary. */
interface Section {
  title: string;
  lines: string[];
  carried: number;
  /** Of what is left when its turn comes, what it may take before the facts take theirs. */
  share: number;
}

/** `#W2378156` as `W2378156`, `$250` as `250`: how an agent may write an id or amount again. */
const withoutSign = (identifier: string): string =>
  identifier.startsWith("#") || identifier.startsWith("$") ? identifier.slice(1) : identifier;

/** Each word of a text (letters, digits and `_ # $ , . - / @`), its trailing punctuation left off, in one pass over character codes. */
function eachWord(text: string, visit: (word: string, start: number) => void): void {
  let start = -1;
  for (let index = 0; index <= text.length; index++) {
    const code = index < text.length ? text.charCodeAt(index) : 32;
    const inWord =
      (code >= 48 && code <= 57) ||
      (code >= 65 && code <= 90) ||
      (code >= 97 && code <= 122) ||
      code === 95 ||
      code === 35 ||
      code === 36 ||
      code === 44 ||
      code === 46 ||
      code === 45 ||
      code === 47 ||
      code === 64;
    if (inWord && start === -1) start = index;
    else if (!inWord && start !== -1) {
      let end = index;
      while (end > start && ",.-/".includes(text.charAt(end - 1))) end--;
      if (end - start >= 2 && end - start <= 200) visit(text.slice(start, end), start);
      start = -1;
    }
  }
}

/**
 * Records the words of what the agent wrote (`order #W2378156`, `$1,859`, `MCO`), each as the
 * agent wrote it and without its sign or digit grouping, with where it wrote them last.
 */
function noteWords(text: string, order: number, into: Map<string, number>): void {
  eachWord(text.length > 200_000 ? headOf(text, 100_000) + tailOf(text, 100_000) : text, (word) => {
    into.set(word, order);
    const bare = withoutSign(word);
    into.set(bare, order);
    if (bare.includes(",")) into.set(bare.split(",").join(""), order);
  });
}

// Capitals that are words of prose or of tool output, not codes.
const CAPITAL_WORDS = new Set(
  "AND ARE BUT CAN FOR HAS NOT THE YOU ALL ANY WAS YES ONE TWO NEW OLD GET PUT POST HEAD JSON YAML HTML HTTP HTTPS API URL URI SQL CSS XML TODO NOTE ERROR WARNING INFO DEBUG TRUE FALSE NULL NONE USD EUR FAQ PDF ASAP PASS PASSED FAIL FAILED FAILURE SKIP SKIPPED XFAIL FIXME EOF UTF ASCII UUID IMPORTANT STOP DONE OK".split(
    " ",
  ),
);

/** The codes of free text: words of 3 to 8 capitals and digits with 2 capitals or more (`EWR`, `HATHAT`), not prose in capitals. */
function codesOf(
  text: string,
  at: (start: number, end: number) => boolean,
  visit: (code: string, start: number) => void,
): void {
  eachWord(text, (word, start) => {
    if (
      word.length >= 3 &&
      word.length <= 8 &&
      isCode(word) &&
      !hasDigit(word) &&
      !CAPITAL_WORDS.has(word) &&
      !at(start, start + word.length)
    )
      visit(word, start);
  });
}

/**
 * Where a number with digit grouping really ends (`$1,057.24` is one amount, not `$1` and
 * `057.24`): read from `start` over `$`, 1 to 3 digits, groups of `,` and three digits, and a
 * fraction; -1 when it has no group.
 */
function groupedEnd(text: string, start: number, scannedEnd: number): number {
  const isDigitAt = (at: number): boolean => at < text.length && text.charCodeAt(at) >= 48 && text.charCodeAt(at) <= 57;
  let at = text.charCodeAt(start) === 36 ? start + 1 : start;
  const first = at;
  while (isDigitAt(at) && at - first < 4) at++;
  if (at === first || at - first > 3) return -1;
  let groups = 0;
  while (
    text.charCodeAt(at) === 44 &&
    isDigitAt(at + 1) &&
    isDigitAt(at + 2) &&
    isDigitAt(at + 3) &&
    !isDigitAt(at + 4)
  ) {
    at += 4;
    groups++;
  }
  if (groups === 0) return -1;
  if (text.charCodeAt(at) === 46 && isDigitAt(at + 1)) {
    at++;
    while (isDigitAt(at)) at++;
  }
  // Letters glued after it (`1,234abc`) make it no amount.
  const after = at < text.length ? text.charCodeAt(at) : 32;
  if ((after >= 65 && after <= 90) || (after >= 97 && after <= 122) || after === 95) return -1;
  return Math.max(at, scannedEnd);
}

/**
 * Where a grouped number starts when the scanner found only its second group: the `057.24` of
 * `$1,057.24`, whose `$1` is too short to be an identifier alone. Looks back over one group only.
 */
function groupedStart(text: string, start: number, end: number): number {
  if (start < 2 || text.charCodeAt(start - 1) !== 44 || end - start < 3) return start;
  for (let index = start; index < start + 3; index++)
    if (!(text.charCodeAt(index) >= 48 && text.charCodeAt(index) <= 57)) return start;
  let at = start - 1;
  let digits = 0;
  while (digits < 4 && at > 0 && text.charCodeAt(at - 1) >= 48 && text.charCodeAt(at - 1) <= 57) {
    at--;
    digits++;
  }
  if (digits === 0 || digits > 3) return start;
  if (at > 0 && text.charCodeAt(at - 1) === 36) at--;
  // A letter or digit glued before it (`HAT1,234`) makes it no amount.
  const before = at > 0 ? text.charCodeAt(at - 1) : 32;
  if (
    (before >= 48 && before <= 57) ||
    (before >= 65 && before <= 90) ||
    (before >= 97 && before <= 122) ||
    before === 95
  )
    return start;
  return at;
}

const MONTH_NAMES = new Set(
  "jan feb mar apr may jun jul aug sep sept oct nov dec january february march april june july august september october november december".split(
    " ",
  ),
);

/** Dates written with the month's name and the day (`May 25`, `Sept 3rd`), in one pass over the words. */
function monthDatesOf(text: string, visit: (date: string) => void): void {
  let month: string | undefined;
  let monthEnd = -1;
  eachWord(text, (word, start) => {
    if (month !== undefined && start === monthEnd + 1 && text.charCodeAt(monthEnd) === 32) {
      let digits = 0;
      while (digits < word.length && word.charCodeAt(digits) >= 48 && word.charCodeAt(digits) <= 57) digits++;
      const rest = word.slice(digits).toLowerCase();
      const day = Number(word.slice(0, digits));
      if (
        digits >= 1 &&
        digits <= 2 &&
        day >= 1 &&
        day <= 31 &&
        (rest === "" || rest === "st" || rest === "nd" || rest === "rd" || rest === "th")
      )
        visit(`${month} ${day}`);
    }
    const bare = word.endsWith(".") ? word.slice(0, -1) : word;
    month = MONTH_NAMES.has(bare.toLowerCase()) && /^[A-Z]/.test(bare) ? bare : undefined;
    monthEnd = start + word.length;
  });
}

/** One identifier and the few words that say what it is, ranked for the summary. */
interface Fact {
  identifier: string;
  /** What is shown: `order_id #W2378156`, `amount 250`, or the identifier alone. */
  item: string;
  /** Where it came from, the heading of its line: `user`, `agent`, `get_order() `, `get_order result`. */
  source: string;
  /**
   * 0: written by the user or the agent; 1: in a result the agent acted on; 2: in another result;
   * half a tier lower, a word of a record without a digit.
   */
  tier: number;
  /** Position of its message: newer ranks first within a tier. */
  order: number;
}

/** Identifiers of free text, each with the word before it when that word says what it is (`order #W2378156`). */
function textFacts(text: string, source: string, tier: number, order: number): Fact[] {
  const found: Fact[] = [];
  const window = text.length > 200_000 ? headOf(text, 100_000) + tailOf(text, 100_000) : text;
  // Judged in context: `hunter2xyz` is a secret after `password: `, not alone.
  const inSecret = summarySecretTest(window);
  // The end of an amount read with its digit grouping (`$1,057.24`): the pieces the scanner finds after its comma are part of it.
  let groupedUntil = -1;
  scanIdentifiers(window, (scanned, scannedStart, scannedEnd) => {
    if (scannedStart < groupedUntil || inSecret(scannedStart, scannedEnd)) return true;
    const grouped = groupedEnd(window, groupedStart(window, scannedStart, scannedEnd), scannedEnd);
    const start = grouped === -1 ? scannedStart : groupedStart(window, scannedStart, scannedEnd);
    const end = grouped === -1 ? scannedEnd : grouped;
    if (end > scannedEnd) groupedUntil = end;
    const identifier = start < scannedStart || end > scannedEnd ? window.slice(start, end) : scanned;
    // A time of day (`21:00:00`, `7:30`) is read again from its date or schedule, not typed on its own.
    if (/^\d\d?:\d\d/.test(identifier)) return true;
    let wordEnd = start;
    while (wordEnd > 0 && (window.charCodeAt(wordEnd - 1) === 32 || window.charCodeAt(wordEnd - 1) === 58)) wordEnd--;
    let wordStart = wordEnd;
    while (wordStart > 0 && wordEnd - wordStart < 24 && /[A-Za-z]/.test(window.charAt(wordStart - 1))) wordStart--;
    const word =
      wordStart < wordEnd && wordEnd < start && (wordStart === 0 || !/[A-Za-z]/.test(window.charAt(wordStart - 1)))
        ? window.slice(wordStart, wordEnd)
        : "";
    // A short word of prose before it (`on`, `and`, `the`) says nothing of what it is, and costs room; before a number it stays (`fee 25`).
    const says = word.length >= 4 || (word.length >= 2 && (word !== word.toLowerCase() || isNumber(identifier)));
    found.push({ identifier, item: says ? `${word} ${identifier}` : identifier, source, tier, order });
    return found.length < 500;
  });
  // A code with a digit is an identifier the scanner found; one of capitals alone (`EWR`) is found here.
  if (found.length < 500)
    codesOf(
      window,
      inSecret,
      (code) => found.length < 500 && found.push({ identifier: code, item: code, source, tier, order }),
    );
  // A date written with its month's name (`May 25`), which no single word holds.
  if (found.length < 500)
    monthDatesOf(
      window,
      (date) => found.length < 500 && found.push({ identifier: date, item: date, source, tier, order }),
    );
  return found;
}

/** Identifiers of a structured value (arguments, a JSON result), each with its key: `order_id #W2378156`, `amount 250`. */
function valueFacts(value: unknown, source: string, tier: number, order: number): Fact[] {
  const found: Fact[] = [];
  const visit = (item: unknown, key: string | undefined, depth: number): void => {
    if (depth > 8 || found.length >= 500) return;
    if (typeof item === "string") {
      const trimmed = item.trim();
      if ((trimmed.startsWith("{") || trimmed.startsWith("[")) && trimmed.length < 1_000_000) {
        try {
          visit(JSON.parse(trimmed), key, depth + 1);
          return;
        } catch {
          // not JSON after all: read as text
        }
      }
      const inText = textFacts(trimmed, source, tier, order);
      for (const fact of inText) {
        // A word of a record without a digit (`economy`, `round_trip`) ranks after the ids, amounts
        // and dates of its tier: an agent seldom types it again.
        if (!hasDigit(fact.identifier)) fact.tier += 0.5;
        const keyed =
          key !== undefined && fact.item === fact.identifier && !fact.identifier.includes(key)
            ? { ...fact, item: keyedItem(key, fact.identifier) }
            : fact;
        // Judged beside its key, as a number is below and as the quoted call is: `card_number 4539…` is a card's.
        if (redactSummarySecrets(keyed.item) === keyed.item) found.push(keyed);
      }
      // A value that is a code (an airport `MCO`, a reservation `HATHAT`) is a fact by where it stands.
      if (inText.length === 0 && isCode(trimmed))
        found.push({
          identifier: trimmed,
          item: key === undefined ? trimmed : `${key} ${trimmed}`,
          source,
          tier: tier + 0.5,
          order,
        });
    } else if (typeof item === "number" && Number.isFinite(item)) {
      const text = String(item);
      // A number is judged beside its key, as it would be in text: `card_number 4111111111111111` is a card's.
      const shown = key === undefined ? text : keyedItem(key, text);
      if (redactSummarySecrets(shown) !== shown) return;
      if (text.length >= 2 || !Number.isInteger(item))
        found.push({ identifier: text, item: shown, source, tier, order });
    } else if (Array.isArray(item)) {
      for (const entry of item.slice(0, 200)) visit(entry, key, depth + 1);
    } else if (typeof item === "object" && item !== null) {
      for (const [name, entry] of Object.entries(item).slice(0, 200)) {
        // Judged with its value, as the redaction does: `"token": "USDC"` is a currency, not a secret.
        if (
          isSecretName(name) &&
          (typeof entry === "object" || isSecretSetting(name, typeof entry === "string" ? entry : String(entry)))
        )
          continue;
        // A key that is itself an identifier (`gift_card_7480005`) names the record under it; a key
        // without a digit (`first_name`), or one over a plain value (`address1`), is the result's schema.
        const keyFacts =
          typeof entry === "object" && entry !== null
            ? textFacts(name, source, tier, order).filter((fact) => hasDigit(fact.identifier))
            : [];
        found.push(...keyFacts);
        visit(entry, keyFacts.length > 0 ? keyFacts[0]?.identifier : name, depth + 1);
      }
    }
  };
  visit(value, undefined, 0);
  return found;
}

/** Whether a value is a number as written (`185`, `1,234.50`, `$250`): an amount or a count, which says nothing without its field. */
function isNumber(text: string): boolean {
  let digits = 0;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code >= 48 && code <= 57) digits++;
    else if (!(code === 44 || code === 46 || (code === 36 && index === 0))) return false;
  }
  return digits > 0;
}

/**
 * A value with its key: `economy: 185` for a number, so that it reads as the fare it is and not as
 * any 185; `order_id #W2378156` for the rest.
 */
const keyedItem = (key: string, value: string): string => (isNumber(value) ? `${key}: ${value}` : `${key} ${value}`);

const hasDigit = (text: string): boolean => {
  for (let index = 0; index < text.length; index++)
    if (text.charCodeAt(index) >= 48 && text.charCodeAt(index) <= 57) return true;
  return false;
};

/** A short value of capitals and digits (`MCO`, `HATHAT`, `SFO-2`): a code someone types again. */
function isCode(text: string): boolean {
  if (text.length < 2 || text.length > 16) return false;
  let letters = 0;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code >= 65 && code <= 90) letters++;
    else if (!((code >= 48 && code <= 57) || code === 45 || code === 95)) return false;
  }
  return letters >= 2;
}

/** The facts of a tool result: by structure when it is JSON, else the identifiers of its text. */
function resultFacts(output: string, source: string, order: number): Fact[] {
  const trimmed = output.trim();
  if ((trimmed.startsWith("{") || trimmed.startsWith("[")) && trimmed.length < 1_000_000) {
    try {
      return valueFacts(JSON.parse(trimmed), source, 2, order);
    } catch {
      // not JSON: read as text
    }
  }
  return textFacts(output, source, 2, order);
}

/**
 * The words before a fact's value that say what it is (`flight_number `), when the value is no number
 * (an amount is read by the key right before it, so each keeps its own): the facts of one line that
 * share them are written under them once.
 */
function keyOf({ item, identifier }: Fact): string | undefined {
  return item.length > identifier.length && item.endsWith(identifier) && !isNumber(identifier)
    ? item.slice(0, -identifier.length)
    : undefined;
}

/**
 * The facts section: one line per source, in the order the sources first spoke; its facts oldest
 * first, those under one key written once (`flight_number HAT035, HAT066; price: 163`).
 */
function factsBlock(title: string, chosen: { fact: Fact; index: number }[]): string | undefined {
  if (chosen.length === 0) return undefined;
  const lines = new Map<string, Map<string, string[]>>();
  for (const [at, { fact }] of chosen.sort((a, b) => a.fact.order - b.fact.order || a.index - b.index).entries()) {
    const line = lines.get(fact.source) ?? new Map<string, string[]>();
    lines.set(fact.source, line);
    const key = keyOf(fact) ?? `\n${at}`;
    const values = line.get(key);
    if (values === undefined) line.set(key, [key.startsWith("\n") ? fact.item : fact.identifier]);
    else values.push(fact.identifier);
  }
  const written = (groups: Map<string, string[]>): string =>
    [...groups].map(([key, values]) => (key.startsWith("\n") ? "" : key) + values.join(", ")).join("; ");
  return `${title}:\n${[...lines].map(([source, groups]) => `- ${source}: ${written(groups)}`).join("\n")}`;
}

/**
 * A previous summary made here, split into its sections so that they merge into the new ones
 * (instead of nesting an "earlier summary" in each summary); any other previous summary is kept
 * whole (`foreign`).
 */
function earlierSections(previousSummary: string | undefined): {
  sections: Map<string, string[]>;
  facts: Fact[];
  foreign: string | undefined;
} {
  const sections = new Map<string, string[]>();
  const facts: Fact[] = [];
  const text = previousSummary?.trim();
  if (!text) return { sections, facts, foreign: undefined };
  const own = text.startsWith(HEADER) || OWN_TITLES.has(text.slice(0, Math.max(0, text.indexOf(":"))));
  if (!own) {
    // Another summary is kept as a block, and its identifiers rank with the new facts too, in case the block is cut.
    return { sections, facts: textFacts(text, "earlier summary", 1, -1), foreign: text };
  }
  for (const block of (text.startsWith(HEADER) ? text.slice(HEADER.length) : text).split("\n\n")) {
    const newline = block.indexOf("\n");
    if (newline === -1) continue;
    const title = block.slice(0, block.indexOf(":"));
    const lines = block
      .slice(newline + 1)
      .split("\n")
      .filter((line) => line.trim() !== "");
    if (title.startsWith(FACTS)) {
      // Earlier facts rank with the new ones by where they came from (what was said, or a result
      // the agent used), older than any new one.
      for (const line of lines) {
        // A colon after a line's first item is a key's (`HAT039; economy: 185`), not a source's.
        const found = line.indexOf(": ");
        const colon = found === -1 || line.lastIndexOf("; ", found) !== -1 ? -1 : found;
        const source = colon === -1 ? "earlier" : line.slice(2, colon);
        // `flight_number HAT035, HAT066` is two facts under one key.
        for (const group of (colon === -1 ? line.slice(2) : line.slice(colon + 2)).split("; ")) {
          const [first = "", ...more] = group.split(", ");
          const key = first.slice(0, first.lastIndexOf(" ") + 1);
          for (const item of [first, ...more.map((value) => key + value)]) {
            const identifier = item.slice(item.lastIndexOf(" ") + 1);
            if (identifier !== "")
              facts.push({
                identifier,
                item,
                source,
                tier: source.endsWith(" result") || source === "earlier" ? 1 : 0,
                order: -1,
              });
          }
        }
      }
    } else {
      // Several summaries of this function merged at once: each one's lines, in order.
      sections.set(title, [...(sections.get(title) ?? []), ...lines]);
      // What the user said holds facts too: they are carried even when the quotes are not.
      if (title === REQUESTS || title === RULES || title === DECISIONS || title === PEOPLE || title === TASKS)
        facts.push(...textFacts(lines.join("\n"), "user", 0, -1));
    }
  }
  return { sections, facts, foreign: undefined };
}
