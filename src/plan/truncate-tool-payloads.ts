import { type Calibration, TranscriptTokens, UNCALIBRATED } from "../counting/token-counter.js";
import type { MessageRecord } from "../dialects/dialect.js";
import { isEditableAt } from "../dialects/messages.js";
import { listFormats, type MessageFormats } from "../dialects/format-claims.js";
import { dialectIn } from "../dialects/registry.js";
import type { AnyMessage, CountTokens } from "../ground/types.js";
import { cutMiddle, indexIdentifiers, namedIn, type NamedIdentifiers } from "../text/cut-middle.js";
import { shortenJson } from "../text/shorten-json.js";

/** What replaces the middle of a payload that was cut. */
const truncationMarker = (characters: number, identifiers: readonly string[] = []): string =>
  `[… ${characters} characters cut to fit the context window${namedIn(identifiers)} …]`;

/** One tool payload: a result, or a call's arguments. */
interface Slot {
  message: number;
  kind: "result" | "arguments";
  /** Its position among the message's payloads of that kind. */
  index: number;
  text: string;
  /** The identifiers of any cut of `text`, indexed the first time it is cut. */
  named?: NamedIdentifiers;
}

/** The tail after truncation. */
export interface Truncation<M extends AnyMessage> {
  messages: M[];
  /** Token count of `messages`. */
  tokens: number;
  /** Payloads cut. */
  cut: number;
}

/**
 * The identifier index of each payload of a message, kept as long as the message: an agent loop
 * passes the same message objects on every step, and a payload of megabytes is then scanned once,
 * not once per step. A payload changed in place since is indexed again.
 */
const indexes = new WeakMap<object, Map<string, { text: string; named: NamedIdentifiers }>>();

function namedOf(message: object, slot: Slot): NamedIdentifiers {
  if (slot.named !== undefined) return slot.named;
  let payloads = indexes.get(message);
  if (payloads === undefined) indexes.set(message, (payloads = new Map()));
  const key = `${slot.kind}:${slot.index}`;
  let entry = payloads.get(key);
  if (entry === undefined || entry.text !== slot.text)
    payloads.set(key, (entry = { text: slot.text, named: indexIdentifiers(slot.text) }));
  slot.named = entry.named;
  return entry.named;
}

/**
 * The last truncation of a tail, by the message of its first payload: the next step of an agent
 * loop that sends the same messages against the same budget gets it back without cutting anything.
 * Only that: a memo of a result that depends on nothing else, so it is what cutting again would
 * give. Starting the next search at the length found last time made the result depend on what the
 * process had cut before (the count is not strictly monotone in the length, and a search from
 * another start can stop at another fitting length): bench:cost counted 6,468,303 tokens for one
 * scenario in a whole run and 6,468,305 run alone.
 */
const previous = new WeakMap<
  object,
  {
    messages: readonly object[];
    texts: readonly string[];
    budget: number;
    countTokens: unknown;
    calibration: Calibration;
    result: Truncation<AnyMessage>;
  }
>();

function slotsOf(messages: readonly object[], formats: MessageFormats | undefined): Slot[] {
  const slots: Slot[] = [];
  messages.forEach((message, position) => {
    // A signed message (and a call bound to its reasoning) reaches the provider byte for byte.
    if (!isEditableAt(messages, position, formats)) return;
    const dialect = dialectIn(message, formats);
    dialect
      .argumentTexts(message as MessageRecord)
      .forEach((text, index) => slots.push({ message: position, kind: "arguments", index, text }));
    dialect
      .resultTexts(message as MessageRecord)
      .forEach((text, index) => slots.push({ message: position, kind: "result", index, text }));
  });
  return slots;
}

const sameMessages = (left: readonly object[], right: readonly object[]): boolean =>
  left.length === right.length && left.every((message, index) => message === right[index]);

/** Whether two calibrations count `messages` alike (each call with usage makes a new one). */
const sameCalibration = (left: Calibration, right: Calibration, messages: readonly object[]): boolean =>
  left === right ||
  (left.scale === right.scale &&
    left.floor === right.floor &&
    messages.every((message) => (left.counted?.has(message) ?? false) === (right.counted?.has(message) ?? false)));

/**
 * Cuts the tool payloads (results and call arguments) of `messages` in the middle, the longest
 * first, to one common length: the longest length at which the messages count `budget` tokens or
 * fewer. Payloads shorter than that length are not touched, so only oversized ones are cut, and
 * only as much as needed. The newest payload is cut last: only when cutting every older one to
 * nothing is not enough. Calls, ids and shapes are kept (each dialect replaces its own payloads).
 * Messages that fit are returned as they are, so a second pass with the same budget changes nothing.
 *
 * The work is linear in the payloads' length: each payload is scanned once (and not again on the
 * next call with the same message objects), and the search for the length counts a few candidates
 * only, since the count grows almost in proportion to the length kept.
 *
 * @returns the messages that fit, or the smallest reachable when none does; undefined when nothing needed cutting
 */
export function truncateToolPayloads<M extends AnyMessage>(
  messages: readonly M[],
  budget: number,
  countTokens: CountTokens<M> | undefined,
  /** `formats`: the call's, when a plan truncates (they are not told again). */
  counting: { calibration?: Calibration; formats?: MessageFormats } = {},
): Truncation<M> | undefined {
  const { calibration = UNCALIBRATED } = counting;
  const formats = counting.formats === undefined ? undefined : listFormats(messages, counting.formats);
  const slots = slotsOf(messages, formats);
  const texts = slots.map((slot) => slot.text);
  const first = slots.length === 0 ? undefined : (messages[(slots[0] as Slot).message] as object);
  const last = first === undefined ? undefined : previous.get(first);
  const unchanged =
    last !== undefined &&
    last.countTokens === countTokens &&
    sameMessages(last.messages, messages) &&
    sameCalibration(last.calibration, calibration, messages) &&
    last.texts.every((text, index) => text === texts[index]);
  if (unchanged && last.budget === budget)
    return { ...(last.result as Truncation<M>), messages: (last.result.messages as M[]).slice() };

  const original = new TranscriptTokens(messages, countTokens, undefined, { calibration, formats });
  if (original.total <= budget) return undefined;
  if (slots.length === 0) return undefined;

  const apply = (cap: number, cuttable: number, byStructure = false): Truncation<M> => {
    const byMessage = new Map<number, { results: Map<number, string>; args: Map<number, string> }>();
    let cut = 0;
    for (let position = 0; position < cuttable; position++) {
      const slot = slots[position] as Slot;
      // Cutting a payload barely over the cap would add a marker longer than what it removes.
      if (slot.text.length <= cap + truncationMarker(slot.text.length).length + 2) continue;
      let entry = byMessage.get(slot.message);
      if (entry === undefined) byMessage.set(slot.message, (entry = { results: new Map(), args: new Map() }));
      // The identifiers of the cut part may take as much again as the kept text: they are what the
      // agent is most likely to need, and the search for the cap counts them too.
      const listChars = Math.max(200, cap);
      const named = namedOf(messages[slot.message] as object, slot);
      const text =
        (byStructure ? shortenJson(slot.text, cap, listChars) : undefined) ??
        cutMiddle(slot.text, cap, truncationMarker, { listChars, named });
      (slot.kind === "result" ? entry.results : entry.args).set(slot.index, text);
      cut++;
    }
    const candidate = messages.slice();
    for (const [position, { results, args }] of byMessage) {
      const message = messages[position] as MessageRecord;
      const dialect = dialectIn(message, formats);
      candidate[position] = dialect.replaceResults(dialect.replaceArguments(message, args), results) as M;
      // The cut copy keeps the shape its dialect made it in.
      formats?.adopt(candidate[position] as object, formats.at(position));
    }
    const tokens = new TranscriptTokens(candidate, countTokens, { from: original, changed: [...byMessage.keys()] })
      .total;
    return { messages: candidate, tokens, cut };
  };

  const remember = (result: Truncation<M>): Truncation<M> => {
    if (first !== undefined)
      previous.set(first, { messages: messages.slice(), texts, budget, countTokens, calibration, result });
    return result;
  };

  // The newest payload is spared while cutting the older ones can do it.
  for (const cuttable of slots.length > 1 ? [slots.length - 1, slots.length] : [slots.length]) {
    const smallest = apply(0, cuttable);
    if (smallest.tokens > budget) {
      if (cuttable === slots.length) return remember(smallest);
      continue;
    }
    // A loop, not a spread: a turn of a hundred thousand parallel calls is more arguments than a call takes.
    let longest = 0;
    for (let position = 0; position < cuttable; position++)
      longest = Math.max(longest, (slots[position] as Slot).text.length);
    const { cap, fits } = longestFitting(
      { smallest, over: longest + 1, overTokens: original.total, budget },
      (length) => apply(length, cuttable),
    );
    // JSON payloads are then shortened by their structure to the same length, when that fits too:
    // every key kept, and long arrays saying what they left out, where a middle cut keeps half an object.
    // Structure costs a little room (quotes, brackets, a marker per array): a few shorter lengths are tried.
    const anyJson = slots.slice(0, cuttable).some((slot) => /^\s*[[{]/.test(slot.text.slice(0, 64)));
    for (let length = cap; anyJson && length > 0 && length >= cap / 4; length = Math.floor(length * 0.7)) {
      const structured = apply(length, cuttable, true);
      if (structured.tokens <= budget) return remember(structured);
    }
    return remember(fits);
  }
  return undefined;
}

/**
 * The longest length in `[0, over)` whose cut fits `budget`, given the cut at 0 (which fits) and
 * the count at `over` (which does not). The count grows with the length kept, almost in proportion
 * to it, so each try is placed where the line between the nearest fitting and failing tries meets
 * the budget. An end kept twice in a row has its weight halved (the Illinois rule) and the next
 * try moves away from it by at least twice the last such step; kept three times, the next try
 * halves the interval. So a curved count, or one that stays flat over many lengths, still closes
 * in within a few tries more than a bisection's, and a nearly straight one within a few tries.
 */
function longestFitting<M extends AnyMessage>(
  search: { smallest: Truncation<M>; over: number; overTokens: number; budget: number },
  attempt: (length: number) => Truncation<M>,
): { cap: number; fits: Truncation<M> } {
  const { smallest, over, overTokens, budget } = search;
  let low = 0;
  let fits = smallest;
  let high = over;
  let lowGap = budget - smallest.tokens;
  let highGap = overTokens - budget;
  // +n: the last n tries fitted; -n: the last n did not.
  let run = 0;
  while (high - low > 1) {
    let length = low + Math.round(((high - low) * lowGap) / Math.max(Number.MIN_VALUE, lowGap + highGap));
    if (run > 1) length = Math.max(length, low + 2 ** (run - 1));
    if (run < -1) length = Math.min(length, high - 2 ** (-run - 1));
    // A third try on the same side: the line is far from the count there, and halving is faster.
    if (Math.abs(run) > 2) length = low + Math.floor((high - low) / 2);
    length = Math.min(high - 1, Math.max(low + 1, length));
    const tried = attempt(length);
    if (tried.tokens <= budget) {
      low = length;
      fits = tried;
      lowGap = budget - tried.tokens;
      if (run > 0) highGap /= 2;
      run = run > 0 ? run + 1 : 1;
    } else {
      high = length;
      highGap = tried.tokens - budget;
      if (run < 0) lowGap /= 2;
      run = run < 0 ? run - 1 : -1;
    }
  }
  return { cap: low, fits };
}
