// Whether a text holds every word of a query, and how the worst of them stands there, in one pass
// over the text whatever the words: a recall's words are untrusted, and a scan per word would make
// the work grow with the query times the archive.

import {
  STANDS_AS_PART,
  STANDS_AS_WORD,
  STANDS_INSIDE,
  isJoinCode,
  isWordCode,
  type Occurrence,
} from "./best-occurrence.js";

/** Where a text holds every word: how the worst-standing word stands, and where the first of their best places starts. */
export type AllWordsFound = Occurrence;

/** Work done, counted: one step per character or boundary read, per automaton move and per word found. */
export interface SearchWork {
  steps: number;
}

// Where a run of word characters starts or ends, the bounded scan reads one of two marks: `WHOLE`
// when the run is not joined there to more of an identifier, `JOINED` when it is (a `.`, `/` or
// `-` before its start; one followed by a word character after its end). A word stands whole where
// the text holds it between `WHOLE` marks, as a part between any marks, and inside a longer word
// elsewhere: exactly how `bestOccurrence` ranks a place. The marks lie outside UTF-16.
const WHOLE = 0x10000;
const JOINED = 0x10001;

/** The mark at boundary `at` of `text` (between `text[at - 1]` and `text[at]`), or -1 where no run of word characters starts or ends. */
function markAt(text: string, at: number): number {
  const before = at > 0 && isWordCode(text.charCodeAt(at - 1));
  const after = at < text.length && isWordCode(text.charCodeAt(at));
  if (before === after) return -1;
  if (after) return at === 0 || !isJoinCode(text.charCodeAt(at - 1)) ? WHOLE : JOINED;
  return at === text.length ||
    !(isJoinCode(text.charCodeAt(at)) && at + 1 < text.length && isWordCode(text.charCodeAt(at + 1)))
    ? WHOLE
    : JOINED;
}

/**
 * The ways the bounded scan can read `word`: its characters with the marks inside it, and at its
 * edges the marks a whole word has (`whole`) or any marks. A mark that depends on the text after
 * the word (a run that ends at the word's last character, a `.`, `/` or `-`) can be either.
 */
function markedForms(word: string, whole: boolean): number[][] {
  const edge = whole ? [WHOLE] : [WHOLE, JOINED];
  let forms: number[][] = [[]];
  const extend = (marks: readonly number[]) => (forms = forms.flatMap((form) => marks.map((mark) => [...form, mark])));
  for (let at = 0; at <= word.length; at++) {
    const before = at > 0 && isWordCode(word.charCodeAt(at - 1));
    const after = at < word.length && isWordCode(word.charCodeAt(at));
    if (before !== after) {
      if (at === 0 || at === word.length) extend(edge);
      else if (after) extend([isJoinCode(word.charCodeAt(at - 1)) ? JOINED : WHOLE]);
      else if (!isJoinCode(word.charCodeAt(at))) extend([WHOLE]);
      else if (at + 1 < word.length) extend([isWordCode(word.charCodeAt(at + 1)) ? JOINED : WHOLE]);
      else extend([WHOLE, JOINED]);
    }
    if (at < word.length) for (const form of forms) form.push(word.charCodeAt(at));
  }
  return forms;
}

/** An Aho–Corasick automaton over the forms of the words. */
interface Automaton {
  next: Map<number, number>[];
  fail: number[];
  /** The nearest node below on the failure chain that ends a form (0: none). */
  dictionary: number[];
  /** For a node that ends a form: its word, and whether the form is the word standing whole. */
  word: number[];
  whole: boolean[];
}

function automatonOf(
  forms: readonly { symbols: readonly number[]; word: number; whole: boolean }[],
  work: SearchWork,
): Automaton {
  const automaton: Automaton = { next: [new Map()], fail: [0], dictionary: [0], word: [-1], whole: [false] };
  for (const { symbols, word, whole } of forms) {
    let node = 0;
    for (const symbol of symbols) {
      work.steps++;
      let child = automaton.next[node]!.get(symbol);
      if (child === undefined) {
        child = automaton.next.length;
        automaton.next.push(new Map());
        automaton.fail.push(0);
        automaton.dictionary.push(0);
        automaton.word.push(-1);
        automaton.whole.push(false);
        automaton.next[node]!.set(symbol, child);
      }
      node = child;
    }
    automaton.word[node] = word;
    automaton.whole[node] = automaton.whole[node]! || whole;
  }
  // Breadth first, so that every node's failure is known before its children's (the root's
  // children fail to the root).
  const queue: number[] = [...automaton.next[0]!.values()];
  for (let head = 0; head < queue.length; head++) {
    const node = queue[head]!;
    for (const [symbol, child] of automaton.next[node]!) {
      work.steps++;
      let fallback = automaton.fail[node]!;
      while (fallback !== 0 && !automaton.next[fallback]!.has(symbol))
        (fallback = automaton.fail[fallback]!), work.steps++;
      const fail = automaton.next[fallback]!.get(symbol) ?? 0;
      automaton.fail[child] = fail;
      automaton.dictionary[child] = automaton.word[fail]! >= 0 ? fail : automaton.dictionary[fail]!;
      queue.push(child);
    }
  }
  return automaton;
}

/**
 * A scan of texts with one automaton. Each form is reported once per text, at its first place: a
 * form found already is skipped on the failure chain (a union–find with path compression, reset
 * per text by a stamp), so the scan stays linear even where many forms end at every character
 * (`a aa aaa …` over `aaaa…`).
 */
function scanner(automaton: Automaton, work: SearchWork) {
  const nodes = automaton.next.length;
  const skipTo = new Int32Array(nodes);
  const skipStamp = new Uint32Array(nodes);
  let stamp = 0;
  /** The nearest node from `node` down the dictionary chain whose form this text has not reported yet (0: none). */
  const unreported = (node: number): number => {
    let top = node;
    while (top !== 0 && skipStamp[top] === stamp) (top = skipTo[top]!), work.steps++;
    // Path compression: every node passed now points straight at the answer.
    while (node !== top && skipStamp[node] === stamp) {
      const after = skipTo[node]!;
      skipTo[node] = top;
      node = after;
    }
    return top;
  };
  return {
    /** Starts a text: nothing of it reported yet. */
    start() {
      stamp++;
      return 0;
    },
    /** The state after `symbol`; `report` hears each form ending there that this text has not reported. */
    step(state: number, symbol: number, report: (word: number, whole: boolean) => void): number {
      work.steps++;
      while (state !== 0 && !automaton.next[state]!.has(symbol)) (state = automaton.fail[state]!), work.steps++;
      state = automaton.next[state]!.get(symbol) ?? 0;
      let node = unreported(automaton.word[state]! >= 0 ? state : automaton.dictionary[state]!);
      while (node !== 0) {
        work.steps++;
        report(automaton.word[node]!, automaton.whole[node]!);
        skipStamp[node] = stamp;
        skipTo[node] = automaton.dictionary[node]!;
        node = unreported(automaton.dictionary[node]!);
      }
      return state;
    },
  };
}

/**
 * A search for texts that hold every one of `words` (each at least one character, lower case to
 * find them without regard to case in a lower-cased text). The automata are built once, in time
 * linear in the words; each text is then read twice, once as it is and once with the marks of its
 * word boundaries, so the work is linear in the text whatever the words are. A text holds a word
 * where `bestOccurrence` finds it; the answer is how the worst-standing word stands (as a whole
 * word, as a whole part of an identifier, or only inside a longer word) and where the first of
 * the words' best places starts.
 *
 * @param words - the distinct words of a query
 * @param work - counts the steps taken, for tests that check the work is linear
 * @returns the search of one text: undefined when it does not hold every word
 * @example
 * allWordsSearch(["refund", "denied"])("the refund was denied"); // { at: 4, stands: STANDS_AS_WORD }
 */
export function allWordsSearch(
  words: readonly string[],
  work: SearchWork = { steps: 0 },
): (text: string) => AllWordsFound | undefined {
  const count = words.length;
  const anywhere = scanner(
    automatonOf(
      words.map((word, index) => ({
        symbols: Array.from({ length: word.length }, (_, at) => word.charCodeAt(at)),
        word: index,
        whole: false,
      })),
      work,
    ),
    work,
  );
  const bounded = scanner(
    automatonOf(
      words.flatMap((word, index) => [
        ...markedForms(word, true).map((symbols) => ({ symbols, word: index, whole: true })),
        ...markedForms(word, false).map((symbols) => ({ symbols, word: index, whole: false })),
      ]),
      work,
    ),
    work,
  );
  // Per word, where it was first found in this text (anywhere, between marks, standing whole); a
  // stamp tells which text the place is of, so nothing is reset between texts.
  const foundAt = [new Int32Array(count), new Int32Array(count), new Int32Array(count)] as const;
  const foundStamp = [new Uint32Array(count), new Uint32Array(count), new Uint32Array(count)] as const;
  let stamp = 0;
  return (text) => {
    stamp++;
    const held = [0, 0, 0];
    let read = 0;
    const found = (kind: 0 | 1 | 2, word: number) => {
      if (foundStamp[kind][word] === stamp) return;
      foundStamp[kind][word] = stamp;
      foundAt[kind][word] = read - (words[word] as string).length;
      held[kind]!++;
    };
    let state = anywhere.start();
    for (read = 1; read <= text.length; read++)
      state = anywhere.step(state, text.charCodeAt(read - 1), (word) => found(0, word));
    if (held[0] !== count) return undefined;
    state = bounded.start();
    const reportBounded = (word: number, whole: boolean) => {
      found(1, word);
      if (whole) found(2, word);
    };
    read = 0;
    for (let at = 0; at <= text.length; at++) {
      const mark = markAt(text, at);
      if (mark !== -1) state = bounded.step(state, mark, reportBounded);
      if (at === text.length) break;
      read = at + 1;
      state = bounded.step(state, text.charCodeAt(at), reportBounded);
    }
    const stands = held[2] === count ? STANDS_AS_WORD : held[1] === count ? STANDS_AS_PART : STANDS_INSIDE;
    let first = text.length;
    for (let word = 0; word < count; word++) {
      work.steps++;
      const kind = foundStamp[2][word] === stamp ? 2 : foundStamp[1][word] === stamp ? 1 : 0;
      first = Math.min(first, foundAt[kind][word]!);
    }
    return { at: first, stands };
  };
}
