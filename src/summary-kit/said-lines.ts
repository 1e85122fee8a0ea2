// What a user told the agent, sentence by sentence, sorted into what a summary must keep: the rules
// they set, the decisions they took (and the ones they took back), who owns what, their goals and
// open tasks, and the chit-chat a summary can leave out. Read in one pass over character codes to
// find the sentences, then a fixed list of cue phrases looked up in each (`includes` of short
// needles): linear in the text, whatever it holds.

import { headOf, tailOf } from "../text/cut-points.js";

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

// Cue phrases, lower case. A Latin-script cue is looked up as a whole word (the sentence is padded
// and its punctuation read as spaces); a cue of a script written without spaces (Chinese, Japanese)
// is looked up as it stands.
const RULE_CUES = words(
  "never|always|must|must not|mustn't|do not|don't|dont|only use|use only|only ever|only if|only when|only in|only on|only with|only after|only via|only through|only from|red line|hard line|hard rule|under no circumstances|in no case|at all times|make sure|ensure|not allowed|forbidden|prohibited|required|requirement|mandatory|no exceptions|strictly|absolutely|non-negotiable|should never|should always|is a rule|the rule|avoid|stay away from|keep it|off limits|off-limits|" +
    // Spanish, Portuguese, French, Italian, German
    "nunca|siempre|jamás|no uses|no debes|prohibido|obligatorio|sempre|jamais|toujours|il faut|ne jamais|interdit|obligatoire|mai|vietato|niemals|immer|nie|verboten|unbedingt|darf nicht|dürfen nicht|" +
    // Russian, Ukrainian
    "никогда|всегда|нельзя|обязательно|запрещено|запрещается|ни в коем случае|только|не используй|не используйте|не трогай|ніколи|завжди|заборонено|" +
    // Arabic, Hebrew, Hindi, Turkish
    "أبدا|أبداً|دائما|دائماً|يجب|ممنوع|لا تستخدم|لا تقم|إياك|לעולם לא|תמיד|אסור|חובה|कभी नहीं|हमेशा|ज़रूर|जरूर|मत|asla|her zaman|kesinlikle|yasak",
);
const RULE_CUES_UNSPACED = "不要|不准|不许|禁止|必须|务必|一定要|永远不|绝不|绝对不|只能|只用|红线|总是|始终|不得|不可以|切勿|絶対|必ず|禁止|してはいけない|してはならない|しないで|ないでください|常に|決して|のみ|절대|반드시|금지|하지 마|하지마|항상|꼭".split("|");

const NOT_RULES = words("don't have|do not have|don't remember|do not remember|don't know|do not know|don't recall|don't think|don't see|must have|must be|only have|only know|only remember");

const DECISION_CUES = words(
  "let's|lets|let us|we'll go with|go with|going with|we decided|i decided|decided|decision|we will use|we'll use|i'll use|use instead|switch to|switching to|settle on|settled on|opt for|the plan is|plan is to|we agreed|agreed|i chose|we chose|instead|" +
    "decidimos|vamos a usar|usemos|en lugar de|décidé|on utilise|utilisons|au lieu de|entschieden|stattdessen|nehmen wir|lass uns|решили|решение|давай|давайте|вместо|будем использовать|قررنا|سنستخدم|بدلا من|בואו|החלטנו|हम इस्तेमाल|karar",
);
const DECISION_CUES_UNSPACED = "决定|就用|改用|改成|还是用|我们用|用吧|にしましょう|にします|決定|代わりに|やっぱり|로 하자|결정|대신".split("|");

// What takes back the decision before it: on its own ("Scratch that.") it opens the sentence after it.
const OVERRIDE_CUES = words(
  "scratch that|never mind|nevermind|on second thought|on second thoughts|change of plan|change of plans|forget that|forget what i said|ignore what i said|let's not|instead|rather|no wait|actually|cancel that|i changed my mind|changed my mind|" +
    "mejor no|olvida eso|en lugar de|oubliez ça|oublie ça|plutôt|au lieu de|vergiss das|stattdessen|lieber|забудь|передумал|передумала|вместо|отмена|انسَ ذلك|بدلا من|तुम भूल जाओ",
);
const OVERRIDE_CUES_UNSPACED = "算了|改用|改成|还是用|不用了|やっぱり|代わりに|やめて|대신|취소".split("|");

const OWNER_CUES = words(
  "owns|owner|owned by|is responsible for|are responsible for|responsible for|in charge of|handles|handle the|takes care of|will take care of|leads|lead on|is our|is the lead|manager|maintainer|maintains|reviewer|reviews|approves|sign-off|signs off|point of contact|contact person|on-call|on call|assigned to|is assigned|reports to|ask|" +
    "responsable|encargado|chargé de|zuständig|verantwortlich|отвечает за|ответственный|ответственная|занимается|مسؤول عن|אחראי|जिम्मेदार|sorumlu",
);
const OWNER_CUES_UNSPACED = "负责|主管|担当|責任者|담당|책임".split("|");

// Strong cues only: "please" and "I need" open most requests, and a request is quoted anyway.
const TASK_CUES = words(
  "goal|goals|objective|aim is|the point is|todo|to-do|still need|still needs|still have to|remaining|pending|next step|next steps|follow up|follow-up|open task|open item|open question|don't forget|do not forget|remember to|remind me|later today|tomorrow|by friday|by monday|by tuesday|by wednesday|by thursday|by the end of|before friday|before monday|deadline|due|not done yet|is left|are left|" +
    "objetivo|pendiente|no olvides|objectif|en attente|n'oublie pas|ziel|offen|nicht vergessen|цель|задача|осталось|не забудь|هدف|لا تنس|מטרה|אל תשכח|लक्ष्य|hedef",
);
const TASK_CUES_UNSPACED = "目标|待办|还要|别忘了|下一步|目標|次に|忘れずに|タスク|残り|목표|잊지 마|다음 단계".split("|");

const CHAT_CUES = words(
  "tangent|unrelated|by the way|btw|just curious|curious|fun fact|random question|off-topic|off topic|quick question|lol|haha|weather|what time is it|joke|thanks|thank you|hello|good morning|good night|how are you|nice|cool|awesome|by-the-way",
);

/** Each cue as it is looked up in a padded, lower-cased sentence: ` never `. */
function words(list: string): string[] {
  return list.split("|").map((cue) => ` ${cue} `);
}

const has = (padded: string, cues: readonly string[]): boolean => cues.some((cue) => padded.includes(cue));

/**
 * A sentence as its cues are looked up in it: lower case, every character that is neither a letter,
 * a digit, nor an apostrophe or hyphen inside a word read as a space, padded with one space each side.
 */
function padded(sentence: string): string {
  let out = " ";
  const lower = sentence.toLowerCase();
  for (let index = 0; index < lower.length; index++) {
    const code = lower.charCodeAt(index);
    // ASCII punctuation and space; the curly apostrophe is read as the straight one.
    if (code === 0x2019) out += "'";
    else if (code < 128 && !((code >= 48 && code <= 57) || (code >= 97 && code <= 122) || code === 39 || code === 45)) out += " ";
    else if (code === 0x2014 || code === 0x2013 || code === 0x3001 || code === 0xff0c || code === 0x060c) out += " ";
    else out += lower[index];
  }
  return `${out} `;
}

const DECIDING_CUES = DECISION_CUES.filter((cue) => !OVERRIDE_CUES.includes(cue));
const DECIDING_CUES_UNSPACED = DECISION_CUES_UNSPACED.filter((cue) => !OVERRIDE_CUES_UNSPACED.includes(cue));

/** Whether a sentence that takes something back also says what instead ("算了，改用 Memcached", "Let's instead …"), rather than only opening the next one. */
const decidesItself = (sentence: string): boolean =>
  has(padded(sentence), DECIDING_CUES) || DECIDING_CUES_UNSPACED.some((cue) => sentence.includes(cue)) || OVERRIDE_CUES_UNSPACED.some((cue) => DECISION_CUES_UNSPACED.includes(cue) && sentence.includes(cue));

/** What one sentence is, by its cues; a question or chit-chat without a stronger cue is chat. */
function kindOf(sentence: string): { kind: SaidKind; overrideCue: boolean } {
  const text = padded(sentence);
  const chat = has(text, CHAT_CUES) && !has(text, RULE_CUES);
  const overrideCue = has(text, OVERRIDE_CUES) || OVERRIDE_CUES_UNSPACED.some((cue) => sentence.includes(cue));
  // "I don't have the reservation ID", "I must have left it": what the user lacks or guesses sets no rule.
  const ruleText = has(text, NOT_RULES) ? NOT_RULES.reduce((rest, phrase) => rest.split(phrase).join(" "), text) : text;
  const rule = has(ruleText, RULE_CUES) || RULE_CUES_UNSPACED.some((cue) => sentence.includes(cue));
  const decision = has(text, DECISION_CUES) || DECISION_CUES_UNSPACED.some((cue) => sentence.includes(cue));
  const owner = has(text, OWNER_CUES) || OWNER_CUES_UNSPACED.some((cue) => sentence.includes(cue));
  const task = has(text, TASK_CUES) || TASK_CUES_UNSPACED.some((cue) => sentence.includes(cue));
  // Chit-chat that happens to say "always" ("Quick tangent: do cats always land on their feet?") stays chat.
  // A sentence that holds a number (an id, an amount) is no chit-chat however it opens.
  if (chat && !/[0-9]/.test(sentence)) return { kind: "chat", overrideCue: false };
  const question = sentence.trimEnd().endsWith("?") || sentence.trimEnd().endsWith("？") || sentence.trimEnd().endsWith("؟");
  // "Never mind the Python plan: we'll write it in Go instead" takes a decision back; it sets no rule.
  if (overrideCue && decision && !question) return { kind: "decision", overrideCue };
  // A question that asks for a change ("Could you move it to Chicago instead?") is a request until it is answered.
  if (question) return { kind: owner && hasName(sentence) ? "owner" : task ? "task" : "request", overrideCue: false };
  if (rule && !question) return { kind: "rule", overrideCue };
  if (decision || (overrideCue && !question)) return { kind: "decision", overrideCue };
  if (owner && hasName(sentence)) return { kind: "owner", overrideCue };
  if (task) return { kind: "task", overrideCue };
  return { kind: "request", overrideCue };
}

/** Whether a sentence names someone: a capitalized word after its first, or a script without capitals. */
function hasName(sentence: string): boolean {
  let wordStart = true;
  let first = true;
  for (let index = 0; index < sentence.length; index++) {
    const code = sentence.charCodeAt(index);
    if (code === 32) {
      wordStart = true;
      continue;
    }
    if (code > 0x2e7f) return true;
    if (wordStart && !first && code >= 65 && code <= 90) return true;
    if (wordStart) first = false;
    wordStart = false;
  }
  return first === false && sentence.charCodeAt(0) >= 65 && sentence.charCodeAt(0) <= 90 && /^\S+ (?:owns|is|will|handles|leads|takes|reviews|approves)\b/.test(headOf(sentence, 40));
}

const isSentenceEnd = (code: number): boolean => code === 46 || code === 33 || code === 63 || code === 0x3002 || code === 0xff01 || code === 0xff1f || code === 0x061f || code === 0x0964 || code === 0x2026;
const isSpace = (code: number): boolean => code === 32 || code === 9 || code === 10 || code === 13 || code === 0xa0 || code === 0x3000;

/** The longest sentence kept whole; a longer one is cut at its start, between whole characters. */
const LONGEST = 320;
/** Sentences read from one message at most. */
const MOST = 60;

/**
 * The sentences of `text`, each with what it is, in order. A sentence ends at `.`, `!`, `?` (and
 * `。！？؟।…`) before a space or the end, or at a line break; an opening that only takes something
 * back ("Actually — scratch that.") is joined to the sentence after it, which it turns into an override.
 */
export function saidLinesOf(text: string): SaidLine[] {
  const window = text.length > 40_000 ? `${headOf(text, 20_000)} … ${tailOf(text, 20_000)}` : text;
  const sentences: string[] = [];
  let start = 0;
  for (let index = 0; index <= window.length && sentences.length < MOST * 2; index++) {
    const code = index < window.length ? window.charCodeAt(index) : 10;
    const next = index + 1 < window.length ? window.charCodeAt(index + 1) : 32;
    // A full stop of CJK ends a sentence with no space after it; a Latin one only before a space (not `3.5`, `e.g.x`).
    const ends = code === 10 || code === 13 || (isSentenceEnd(code) && (code >= 0x3000 || isSpace(next) || index + 1 >= window.length));
    if (!ends) continue;
    const sentence = collapse(window.slice(start, index + (code === 10 || code === 13 ? 0 : 1)));
    if (sentence !== "") sentences.push(sentence);
    start = index + 1;
  }
  const lines: SaidLine[] = [];
  let opener: string | undefined;
  let previousKind: SaidKind | undefined;
  for (const sentence of sentences) {
    if (lines.length >= MOST) break;
    const found = kindOf(sentence);
    const { overrideCue } = found;
    // "Did you know?" after a fun fact is chit-chat too.
    const kind = found.kind === "request" && previousKind === "chat" && sentence.length <= 60 ? "chat" : found.kind;
    previousKind = kind;
    // "Actually — scratch that." alone: what it opens is the override.
    if (overrideCue && sentence.length <= 60 && kind !== "rule" && !decidesItself(sentence)) {
      opener = opener === undefined ? sentence : `${opener} ${sentence}`;
      continue;
    }
    // "That is a hard red line for this project." says more of the sentence before it: one line.
    const previous = lines.at(-1);
    if (opener === undefined && previous !== undefined && previous.kind !== "request" && previous.kind !== "chat" && refersBack(sentence) && previous.text.length + sentence.length < LONGEST) {
      previous.text = `${previous.text} ${sentence}`;
      continue;
    }
    const whole = opener === undefined ? sentence : `${opener} ${sentence}`;
    const overrides = opener !== undefined || (kind === "decision" && overrideCue);
    lines.push({ kind: opener !== undefined && (kind === "request" || kind === "task") ? "decision" : kind, text: cut(whole), overrides });
    opener = undefined;
  }
  if (opener !== undefined) lines.push({ kind: "request", text: cut(opener), overrides: false });
  return lines;
}

const BACK_REFERENCES = words("that|this|it|these|those|which|that's|this is|it's|same|also|and|esto|eso|c'est|cela|das|dies|это|то|هذا|ذلك|זה");

/** Whether a sentence opens by pointing at the one before it ("That is a hard red line", "这是红线"). */
function refersBack(sentence: string): boolean {
  const start = padded(headOf(sentence, 12));
  const firstWord = start.slice(0, start.indexOf(" ", 1) + 1);
  return BACK_REFERENCES.includes(firstWord) || sentence.startsWith("这") || sentence.startsWith("那") || sentence.startsWith("これ") || sentence.startsWith("それ");
}

/** Whitespace collapsed to single spaces, trimmed: one pass. */
function collapse(text: string): string {
  let out = "";
  let space = false;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (isSpace(code)) space = out !== "";
    else {
      if (space) out += " ";
      space = false;
      out += text[index];
    }
  }
  return out;
}

const cut = (text: string): string => (text.length <= LONGEST ? text : `${headOf(text, LONGEST - 1)}…`);
