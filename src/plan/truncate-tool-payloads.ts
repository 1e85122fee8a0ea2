import { type Calibration, TranscriptTokens, UNCALIBRATED } from "../counting/token-counter.js";
import type { MessageRecord } from "../dialects/dialect.js";
import { isEditableAt } from "../dialects/messages.js";
import { dialectOf } from "../dialects/registry.js";
import type { AnyMessage, CountTokens } from "../ground/types.js";
import { cutMiddle, namedIn } from "../text/cut-middle.js";
import { cutPayload } from "../text/cut-payload.js";

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
}

/** The tail after truncation. */
export interface Truncation<M extends AnyMessage> {
  messages: M[];
  /** Token count of `messages`. */
  tokens: number;
  /** Payloads cut. */
  cut: number;
}

function slotsOf(messages: readonly object[]): Slot[] {
  const slots: Slot[] = [];
  messages.forEach((message, position) => {
    // A signed message (and a call bound to its reasoning) reaches the provider byte for byte.
    if (!isEditableAt(messages, position)) return;
    const dialect = dialectOf(message);
    dialect.argumentTexts(message as MessageRecord).forEach((text, index) => slots.push({ message: position, kind: "arguments", index, text }));
    dialect.resultTexts(message as MessageRecord).forEach((text, index) => slots.push({ message: position, kind: "result", index, text }));
  });
  return slots;
}

/**
 * Cuts the tool payloads (results and call arguments) of `messages` in the middle, the longest
 * first, to one common length: the longest length at which the messages count `budget` tokens or
 * fewer. Payloads shorter than that length are not touched, so only oversized ones are cut, and
 * only as much as needed. The newest payload is cut last: only when cutting every older one to
 * nothing is not enough. Calls, ids and shapes are kept (each dialect replaces its own payloads).
 * Messages that fit are returned as they are, so a second pass with the same budget changes nothing.
 *
 * @returns the messages that fit, or the smallest reachable when none does; undefined when nothing needed cutting
 */
export function truncateToolPayloads<M extends AnyMessage>(
  messages: readonly M[],
  budget: number,
  countTokens: CountTokens<M> | undefined,
  calibration: Calibration = UNCALIBRATED,
): Truncation<M> | undefined {
  const original = new TranscriptTokens(messages, countTokens, undefined, calibration);
  if (original.total <= budget) return undefined;
  const slots = slotsOf(messages);
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
      const text = byStructure ? cutPayload(slot.text, cap, truncationMarker, listChars) : cutMiddle(slot.text, cap, truncationMarker, listChars);
      (slot.kind === "result" ? entry.results : entry.args).set(slot.index, text);
      cut++;
    }
    const candidate = messages.slice();
    for (const [position, { results, args }] of byMessage) {
      const message = messages[position] as MessageRecord;
      const dialect = dialectOf(message);
      candidate[position] = dialect.replaceResults(dialect.replaceArguments(message, args), results) as M;
    }
    const tokens = new TranscriptTokens(candidate, countTokens, { from: original, changed: [...byMessage.keys()] }).total;
    return { messages: candidate, tokens, cut };
  };

  // The newest payload is spared while cutting the older ones can do it.
  for (const cuttable of slots.length > 1 ? [slots.length - 1, slots.length] : [slots.length]) {
    const smallest = apply(0, cuttable);
    if (smallest.tokens > budget) {
      if (cuttable === slots.length) return smallest;
      continue;
    }
    // The longest common length that fits: fitting only gets easier as the length shrinks.
    let fits = smallest;
    let low = 0;
    let high = Math.max(...slots.slice(0, cuttable).map((slot) => slot.text.length));
    while (low < high) {
      const middle = Math.ceil((low + high) / 2);
      const attempt = apply(middle, cuttable);
      if (attempt.tokens <= budget) {
        low = middle;
        fits = attempt;
      } else high = middle - 1;
    }
    // JSON payloads are then shortened by their structure to the same length, when that fits too:
    // every key kept, and long arrays saying what they left out, where a middle cut keeps half an object.
    // Structure costs a little room (quotes, brackets, a marker per array): a few shorter lengths are tried.
    const anyJson = slots.slice(0, cuttable).some((slot) => /^\s*[[{]/.test(slot.text.slice(0, 64)));
    for (let cap = low; anyJson && cap > 0 && cap >= low / 4; cap = Math.floor(cap * 0.7)) {
      const structured = apply(cap, cuttable, true);
      if (structured.tokens <= budget) return structured;
    }
    return fits;
  }
  return undefined;
}
