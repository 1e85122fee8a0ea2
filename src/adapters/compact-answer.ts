// What the `compact_context` tools of every framework share: their options, and the answer to one call.

import { optionalInteger, optionsObject } from "../ground/checks.js";
import { expectedMessage } from "../ground/describe-value.js";
import type { CompactionRequestAnswer } from "../ground/types.js";

/** What a compact tool asks: a hook, `statefulCompactor` or adapter, each of which has `requestCompaction`. */
export interface Requesting {
  requestCompaction(keep: string, options?: { conversationId?: string; minTokens?: number }): CompactionRequestAnswer;
}

/** Options of a framework's `compactTool`; `Args` is what the framework hands the tool on each call. */
export interface CompactToolOptions<Args> {
  /**
   * The conversation whose next call compacts: a string, or a function of the framework's
   * arguments to the tool. Never taken from the model's input.
   * @default the compactor's own `conversationId`
   */
  conversationId?: string | ((args: Args) => string | undefined);
  /**
   * The least the context must hold, in tokens, for a request to be taken; below it the tool says so and nothing happens.
   * @default Math.floor(maxTokens / 4)
   */
  minTokens?: number;
}

/** Validates a compact tool's arguments once, and returns the function that answers one call. */
export function compactAnswerer<Args>(compact: unknown, options: unknown): (input: unknown, args: Args) => string {
  if (typeof (compact as Partial<Requesting> | null)?.requestCompaction !== "function") {
    throw new TypeError(expectedMessage("compact", "a hook, statefulCompactor or adapter of this library", compact));
  }
  optionsObject(options, "options", ["conversationId", "minTokens"]);
  const { conversationId } = options as CompactToolOptions<Args>;
  if (conversationId !== undefined && typeof conversationId !== "function" && (typeof conversationId !== "string" || conversationId === "")) {
    throw new TypeError(expectedMessage("conversationId", "a non-empty string or a function", conversationId));
  }
  const minTokens = optionalInteger((options as CompactToolOptions<Args>).minTokens, "minTokens", 0, undefined);
  const target = compact as Requesting;
  return (input, args) => {
    const keep = (input as { keep?: unknown } | null)?.keep;
    // The conversation is the application's; whatever else the model put in its input is ignored.
    const id = typeof conversationId === "function" ? conversationId(args) : conversationId;
    return target.requestCompaction(typeof keep === "string" ? keep : "", { ...(id === undefined ? {} : { conversationId: id }), ...(minTokens === undefined ? {} : { minTokens }) }).message;
  };
}
