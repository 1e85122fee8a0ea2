import { MASKED_TOOL_RESULT } from "../ground/constants.js";
import type { MessageRecord } from "../dialects/dialect.js";
import { isEditableAt } from "../dialects/messages.js";
import { dialectOf } from "../dialects/registry.js";
import { expectedMessage } from "../ground/describe-value.js";
import { rejectUnknownKeys } from "../ground/unknown-keys.js";
import type { AnyMessage, MaskToolResultsOptions } from "../ground/types.js";
import type { TranscriptView } from "./transcript-view.js";

/** What `maskToolResults` did. */
export interface MaskedTranscript<M extends AnyMessage = AnyMessage> {
  /** The transcript with old tool results replaced; unchanged messages are the same objects. */
  messages: M[];
  /** Tool results masked by this call (results masked earlier are not counted again). */
  masked: number;
  /** Indices of the messages that are new objects. */
  changed: number[];
}

/**
 * Replaces the payload of every tool result but the newest `keepRecent` with a placeholder, in
 * each dialect's own shape (an OpenAI `tool` message's `content`, an AI SDK result's `output` as
 * `{ type: "text", value }`, a Gemini function response as `{ output }`, …; see the dialects).
 * Calls, ids and the number of messages stay;
 * only changed messages are new objects. Model-free and idempotent.
 *
 * @param messages - the transcript; not changed
 * @param options - `keepRecent` (default 3) and `placeholder` (default `MASKED_TOOL_RESULT`)
 * @returns the masked transcript, how many results were newly masked, and which messages changed
 * @example
 * ```ts
 * const { messages: lighter, masked } = maskToolResults(messages, { keepRecent: 5 });
 * ```
 */
export function maskToolResults<M extends AnyMessage>(
  messages: readonly M[],
  options: MaskToolResultsOptions = {},
  /** The plan's reading of `messages`, when a plan masks: formats are not told again. @internal */
  view?: TranscriptView<M>,
): MaskedTranscript<M> {
  if (!Array.isArray(messages)) throw new TypeError(expectedMessage("messages", "an array", messages));
  if (typeof options !== "object" || options === null)
    throw new TypeError(expectedMessage("options", "an object", options));
  rejectUnknownKeys(options, ["keepRecent", "placeholder"], "");
  const { keepRecent = 3, placeholder = MASKED_TOOL_RESULT } = options;
  const slots: { message: number; part: number; masked: boolean }[] = [];
  for (let index = 0; index < messages.length; index++) {
    // A signed message (and a call bound to its reasoning) reaches the provider byte for byte.
    if (!(view === undefined ? isEditableAt(messages, index) : view.isEditableAt(index))) continue;
    const texts = (view === undefined ? dialectOf(messages[index] as object) : view.dialectAt(index)).resultTexts(
      messages[index] as MessageRecord,
    );
    texts.forEach((text, part) => slots.push({ message: index, part, masked: text === placeholder }));
  }
  const partsToMask = new Map<number, number[]>();
  let masked = 0;
  for (let slot = 0; slot < slots.length - keepRecent; slot++) {
    const entry = slots[slot] as (typeof slots)[number];
    if (entry.masked) continue;
    masked++;
    const parts = partsToMask.get(entry.message);
    if (parts) parts.push(entry.part);
    else partsToMask.set(entry.message, [entry.part]);
  }
  const result = messages.slice();
  for (const [index, parts] of partsToMask) {
    const message = messages[index] as MessageRecord;
    const dialect = view === undefined ? dialectOf(message) : view.dialectAt(index);
    result[index] = dialect.replaceResults(message, new Map(parts.map((part) => [part, placeholder]))) as M;
    // The copy keeps the shape its dialect made it in.
    view?.adopt(result[index] as object, view.at(index));
  }
  return { messages: result, masked, changed: [...partsToMask.keys()] };
}
