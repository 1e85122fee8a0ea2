// What a user told the agent, sentence by sentence, sorted into what a summary must keep: the rules
// they set, the decisions they took (and the ones they took back), who owns what, their goals and
// open tasks, and the chit-chat a summary can leave out. The sentences are found by one split, then
// a fixed list of cue phrases is looked up in each (`includes` of short needles): linear in the
// text, whatever it holds.

import { headOf } from "../text/cut-points.js";

/** What a sentence is, for the summary: the order here is its rank. */
export type SaidKind = "rule" | "decision" | "owner" | "task" | "request" | "chat";

/** One sentence of what was said, with what it is. */
export interface SaidLine {
  kind: SaidKind;
  /** The sentence as written (whitespace collapsed), a short opening such as "Actually, scratch that." kept with what it opens. */
  text: string;
  /** For a decision: it takes back the one before it ("scratch that, let's instead …"). */
  overrides: boolean;
}

// Cue phrases in lower case, one pattern a kind: English, and for rules the strongest of Spanish,
// Portuguese, French, Italian, German, Turkish, Russian, Ukrainian, Arabic, Hebrew, Hindi, Chinese,
// Japanese and Korean, for decisions and overrides of a few of them (each character outside ASCII
// costs every import of the summary about 2 bytes gzipped). A cue of a script written with spaces
// is looked up as whole words (between the spaces of the padded sentence); one of a script written
// without them (Chinese, Japanese, and Korean, whose endings join the word) as it stands.

const RULE =
  / (?:never|always|must|do not|don't|only use|only if|red line|under no circumstances|make sure|not allowed|forbidden|required|requirement|strictly|absolutely|avoid|nunca|siempre|jamais|toujours|niemals|immer|verboten|vietato|asla|никогда|ніколи|لا تستخدم|אסור|कभी नहीं) |不要|必须|絶対|절대/;
// What the user lacks, guesses or takes back sets no rule: "I don't have the reservation ID", "I must have left it", "Never mind".
const NOT_RULE = / (?:do not|don't) (?:have|remember|know|recall|think|see) | must (?:have|be) | never mind /g;
// A decision said outright. "Instead" and its kind only take back (below); a decision they open is one all the same.
const DECISION =
  / (?:let's|let us|go with|decided|we'll use|switch to|the plan is|agreed|decidimos|entschieden) |决定|改用/;
// What takes back the decision before it: on its own ("Scratch that.") it opens the sentence after it.
const OVERRIDE =
  / (?:scratch that|never mind|on second thought|change of plan|instead|actually|changed my mind|en lugar de|au lieu de|stattdessen|вместо) |算了|改用/;
const OWNER = / (?:owns|owner|responsible for|in charge of|handles|is our|ask) |负责/;
// Strong cues only: "please" and "I need" open most requests, and a request is quoted anyway.
const TASK = / (?:goal|todo|still need|still needs|pending|next step|don't forget|remember to|deadline) /;
const CHAT =
  / (?:tangent|unrelated|by the way|btw|curious|fun fact|random question|quick question|haha|weather|thanks|thank you|hello) /;

/**
 * A sentence as its cues are looked up in it: lower case, padded with a space each side, each run of
 * what is neither a letter (with its marks), a digit, an apostrophe nor a hyphen read as one space;
 * the curly apostrophe is the straight one.
 */
const padded = (sentence: string): string =>
  ` ${sentence
    .toLowerCase()
    .replace(/’/g, "'")
    .replace(/[^\p{L}\p{M}\p{N}'-]+/gu, " ")} `;

/**
 * What one sentence is, by its cues: a question or chit-chat without a stronger cue is chat, and
 * `"back"` a short one that only takes something back ("Actually — scratch that.").
 */
function kindOf(sentence: string): SaidKind | "back" | "override" {
  const text = padded(sentence);
  // Chit-chat that says "always" or "don't" is no chat; a sentence that holds a number (an id, an amount) is no chit-chat however it opens.
  const ruleCue = RULE.test(text);
  if (CHAT.test(text) && !ruleCue && !/[0-9]/.test(sentence)) return "chat";
  const rule = ruleCue && RULE.test(text.replace(NOT_RULE, "  "));
  const overrides = OVERRIDE.test(text);
  const decision = DECISION.test(text);
  const owner = OWNER.test(text) && hasName(sentence);
  const task = TASK.test(text);
  // A question that asks for a change ("Could you move it to Chicago instead?") is a request until it is answered.
  if (/[?？؟]$/.test(sentence)) return owner ? "owner" : task ? "task" : "request";
  // "Scratch that, let's instead …" takes a decision back and says what instead; "Always use tabs instead of spaces" sets a rule.
  if (overrides && (decision || !rule)) return decision || sentence.length > 60 ? "override" : "back";
  return rule ? "rule" : decision ? "decision" : owner ? "owner" : task ? "task" : "request";
}

/** Whether a sentence names someone: a capitalized word after its first, one that opens "Priya owns …", or a script without capitals. */
const hasName = (sentence: string): boolean =>
  /[\u2e80-\uffff]|\s\p{Lu}|^\p{Lu}\S* (?:owns|is|handles|leads)\b/u.test(sentence);

/** The longest sentence kept whole; a longer one is cut at its end, between whole characters. */
const cut = (text: string): string => (text.length <= 320 ? text : `${headOf(text, 319)}…`);

/**
 * The sentences of `text` (60 at most), each with what it is, in order. A sentence ends at `.`, `!`,
 * `?` (and `؟।…`) before a space, at `。！？`, or at a line break; an opening that only takes something
 * back ("Actually — scratch that.") is joined to the sentence after it, which it turns into an override.
 */
export function saidLinesOf(text: string): SaidLine[] {
  const lines: SaidLine[] = [];
  let opener = "";
  let chat = false;
  for (const found of headOf(text, 40_000).split(/[\r\n]+|(?<=[.!?؟।…])\s+|(?<=[。！？])/, 120)) {
    const sentence = found.replace(/\s+/g, " ").trim();
    if (sentence === "" || lines.length >= 60) continue;
    let kind = kindOf(sentence);
    // "Did you know?" after a fun fact is chit-chat too.
    if (kind === "request" && chat && sentence.length <= 60) kind = "chat";
    chat = kind === "chat";
    if (kind === "back") {
      opener += `${sentence} `;
      continue;
    }
    // "That is a hard red line for this project." says more of what the sentence before it set: one line.
    const previous = lines.at(-1);
    if (
      opener === "" &&
      previous !== undefined &&
      previous.kind !== "request" &&
      previous.kind !== "chat" &&
      /^(?:that|this|it)\b/i.test(sentence)
    ) {
      previous.text = cut(`${previous.text} ${sentence}`);
      continue;
    }
    const decides =
      kind === "override" || (opener !== "" && (kind === "request" || kind === "task" || kind === "decision"));
    lines.push({
      kind: decides ? "decision" : kind === "override" ? "decision" : kind,
      text: cut(opener + sentence),
      overrides: decides,
    });
    opener = "";
  }
  if (opener !== "") lines.push({ kind: "request", text: cut(opener.trimEnd()), overrides: false });
  return lines;
}
