import { boundedMap } from "../ground/bounded-map.js";
import { optionalInteger, optionsObject } from "../ground/checks.js";
import { expectedMessage } from "../ground/describe-value.js";
import type { Settings } from "../ground/options.js";
import type { AnyMessage, CompactionRequestAnswer } from "../ground/types.js";

/**
 * Compactions the agent asked for (`compact_context`), per conversation: a request waits for the
 * conversation's next model call, which then compacts with the model's note as `instructions`.
 * What the latest call saw decides whether a request is worth taking: a transcript under the
 * minimum, or one compacted on request with nothing added since, answers with why not.
 */
export interface CompactionRequests {
  /** The model asks; the answer is what its tool call returns. */
  ask(key: string, note: string, minTokens: number): CompactionRequestAnswer;
  /** The note of the request waiting for this conversation's call, taken once. */
  take(key: string): string | undefined;
  /** What this conversation's call just measured, and whether it compacted on request. */
  saw(key: string, tokens: number, compactedOnRequest: boolean): void;
}

/** The longest note passed on to `summarize`, in characters: a note, not a second transcript. */
export const MAX_NOTE_CHARS = 2000;

/** Conversations remembered at once; the oldest are forgotten first (a forgotten one can still ask). */
const MAX_CONVERSATIONS = 10_000;

interface Seen {
  tokens: number;
  compactedOnRequest: boolean;
}

/** A registry of requests for one compactor. */
export function compactionRequests(): CompactionRequests {
  const pending = boundedMap<string>(MAX_CONVERSATIONS);
  const seen = boundedMap<Seen>(MAX_CONVERSATIONS);
  return {
    ask(key, note, minTokens) {
      if (pending.has(key)) return { scheduled: false, message: "A compaction is already scheduled before your next step. Continue with the task." };
      const last = seen.get(key);
      if (last?.compactedOnRequest === true) {
        return { scheduled: false, message: "Not compacted: the context was compacted right before this step, and nothing has been added since. Continue with the task." };
      }
      if (last !== undefined && last.tokens < minTokens) {
        return {
          scheduled: false,
          message: `Not compacted: the context holds about ${Math.ceil(last.tokens)} tokens, under the ${minTokens} from which compacting is worth it. Continue with the task.`,
        };
      }
      pending.set(key, boundedNote(note));
      return { scheduled: true, message: "Compaction scheduled: before your next step, the earlier part of this conversation is summarized, keeping what you noted. Continue with the task." };
    },
    take(key) {
      const note = pending.get(key);
      pending.delete(key);
      return note;
    },
    saw(key, tokens, compactedOnRequest) {
      seen.set(key, { tokens, compactedOnRequest });
    },
  };
}

/** The note within `MAX_NOTE_CHARS`, never cut inside a surrogate pair. */
function boundedNote(note: string): string {
  if (note.length <= MAX_NOTE_CHARS) return note;
  const code = note.charCodeAt(MAX_NOTE_CHARS - 1);
  return note.slice(0, code >= 0xd800 && code <= 0xdbff ? MAX_NOTE_CHARS - 1 : MAX_NOTE_CHARS);
}

/** Options of `requestCompaction`, checked. */
export interface CompactionRequestOptions {
  /**
   * The least the context must hold, in tokens as the compactor counts them, for a request to be
   * taken: below it, compacting costs a summary and saves little.
   * @default Math.floor(maxTokens / 4)
   */
  minTokens?: number;
}

/** Checks a request's note and options, with the default minimum. */
export function checkedRequest(keep: unknown, options: unknown, known: readonly string[], maxTokens: number): { minTokens: number } {
  if (typeof keep !== "string") throw new TypeError(expectedMessage("keep", "a string (the model's note of what the summary must keep)", keep));
  optionsObject(options, "request options", known);
  return { minTokens: optionalInteger((options as CompactionRequestOptions).minTokens, "minTokens", 0, Math.floor(maxTokens / 4)) };
}

/** The settings of a call that honours a request: forced, with the model's note as the instructions. */
export function withRequest<M extends AnyMessage>(settings: Settings<M>, note: string | undefined): Settings<M> {
  if (note === undefined) return settings;
  const instructions = [settings.instructions, note.trim() === "" ? undefined : `The agent asked for this compaction. Keep: ${note}`].filter((text) => text !== undefined).join("\n\n");
  return { ...settings, force: true, instructions: instructions === "" ? undefined : instructions };
}
