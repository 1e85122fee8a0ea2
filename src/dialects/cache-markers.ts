// The provider's cache marker after a summary's sections, in each format that has one. A marker
// tells the provider where to write the request's prefix to its cache; the next compaction keeps
// the sections as they are and adds one after them, so its request reads them from there instead
// of writing them again. The marker sits after the last section, not after the archive line and
// seal that follow it (they change at every compaction). Each provider limits the markers of one
// request; a marker that would pass the limit is not placed.
//
// It imports nothing but types: an entry of its own that shared the core's modules would cut the
// core's chunk in two for every bundler that reads the package's chunks.
import type { CacheMarker, DialectName } from "../ground/types.js";
import type { MessageRecord } from "./dialect.js";

/**
 * The most markers one request may carry, the same for the three formats:
 * - Anthropic: a fifth is refused, API error "A maximum of 4 blocks with cache_control may be
 *   provided. Found 5." (the limit of https://platform.claude.com/docs/en/build-with-claude/prompt-caching,
 *   whose top-level `cache_control`, automatic caching, takes one of them).
 * - Bedrock Converse: "Max checkpoints per request: 4" for every Claude and Nova model of the
 *   supported-models table (https://docs.aws.amazon.com/bedrock/latest/userguide/prompt-caching.html).
 * - OpenAI, GPT-5.6 and later: "You can add explicit breakpoints to content blocks with
 *   prompt_cache_breakpoint. Each request can write up to four breakpoints"; in the default mode
 *   "OpenAI creates one implicit breakpoint and writes up to the latest three explicit breakpoints"
 *   (API reference, `prompt_cache_options`; https://developers.openai.com/api/docs/guides/prompt-caching).
 */
export const MAX_MARKERS = 4;

/** The field (or block key) each format marks with. */
const markerKeys: Partial<Record<DialectName, string>> = {
  anthropic: "cache_control",
  "bedrock-converse": "cachePoint",
  "openai-chat": "prompt_cache_breakpoint",
  "openai-responses": "prompt_cache_breakpoint",
};

/** Options of `markFrozenSections`. */
export interface FrozenSectionsMarkerOptions {
  /**
   * Markers the request carries where the hook does not see them: on the tool definitions, on a
   * system prompt sent apart from the messages, Anthropic's top-level `cache_control` (automatic
   * caching), OpenAI's implicit breakpoint, and any you add to the messages after the hook (on the
   * last message, say). The markers in the messages the hook returns are counted by the hook.
   * @default 2
   */
  outside?: number;
}

/** Markers (`key`) in a value, at any depth: a tool result's own blocks may carry one. */
function markersIn(value: unknown, key: string, depth = 0): number {
  if (typeof value !== "object" || value === null || depth > 6) return 0;
  let count = 0;
  for (const [name, field] of Object.entries(value)) {
    if (name === key && field !== null && field !== undefined) count++;
    else count += markersIn(field, key, depth + 1);
  }
  return count;
}

/**
 * A summary's text cut into blocks: before each later section's header (a summarizer's own is
 * escaped, see `joinSections`), and before the archive line and the seal that end it, which change
 * at every compaction. Joined, they are the text; each section's block stays byte for byte while the
 * section is kept. A summarizer's own line shaped like the archive line, or like a seal, starts a
 * block of its own, the same at every compaction.
 */
export const summaryBlocks = (text: string): string[] => text.split(/(?=\n\n(?:\[Summary part: |\[seal |\(Messages ))/);

/** A block that ends the summary after its sections: the archive line, or the seal. */
const isTrailer = (text: string): boolean => /^\n\n(?:\(Messages \d|\[seal [0-9a-f]{24}\]$)/.test(text);

/**
 * The summary message written as the provider caches it: each section a text block of its own, the
 * archive line and seal after them, and, with `marker`, the provider's marker right after the last
 * section. Undefined for a format whose messages have no blocks (its summary stays one text) or a
 * message that is not a summary as the format writes one.
 */
function asCached(summary: MessageRecord, format: DialectName, marker: boolean): MessageRecord | undefined {
  const field = format === "google-genai" ? "parts" : "content";
  const written = summary[field];
  // A text as each format writes it: Anthropic's and OpenAI's a string, the others' one text part.
  const text =
    typeof written === "string"
      ? written
      : Array.isArray(written) && written.length === 1
        ? (written[0] as MessageRecord)["text"]
        : undefined;
  if (typeof text !== "string") return undefined;
  const blocks = summaryBlocks(text);
  let last = blocks.length - 1;
  while (last > 0 && isTrailer(blocks[last] as string)) last--;
  if (format === "openai-chat" || format === "openai-responses") {
    if (!marker) return undefined;
    // OpenAI: a breakpoint "Marks the exact end of a reusable prompt prefix" (`{ mode: "explicit" }` on
    // a text part of a system, developer or user message): the sections are one part, the archive
    // line and seal another. Its cache reads any prefix, so the sections need no part each.
    const type = format === "openai-chat" ? "text" : "input_text";
    const parts: MessageRecord[] = [
      { type, text: blocks.slice(0, last + 1).join(""), prompt_cache_breakpoint: { mode: "explicit" } },
    ];
    if (last + 1 < blocks.length) parts.push({ type, text: blocks.slice(last + 1).join("") });
    return { ...summary, content: parts };
  }
  const shape = blockShapes[format];
  if (shape === undefined) return undefined;
  const content: MessageRecord[] = blocks.map((block) => ({ ...shape, text: block }));
  if (marker && format === "anthropic") {
    // "Prompt caching references the entire prompt - tools, system, and messages (in that order) up
    // to and including the block designated with cache_control".
    content[last] = { ...content[last], cache_control: { type: "ephemeral" } };
  }
  // A CachePointBlock ("Defines a section of content to be cached", `type`: "default") after the blocks it caches.
  if (marker && format === "bedrock-converse") content.splice(last + 1, 0, { cachePoint: { type: "default" } });
  return { ...summary, [field]: content };
}

/** The fields of a text block in each format that has blocks (besides its `text`). */
const blockShapes: Partial<Record<DialectName, Record<string, unknown>>> = {
  anthropic: { type: "text" },
  "bedrock-converse": {},
  "google-genai": {},
  genkit: {},
};

/**
 * The provider's cache marker after the summary's sections, for `compactor({ cacheMarker })` (and
 * `statefulCompactor` and the adapters): Anthropic's `cache_control: { type: "ephemeral" }` on the
 * last section's block, Bedrock Converse's `cachePoint` block after it, OpenAI's
 * `prompt_cache_breakpoint` (GPT-5.6 and later, where a cache write costs more than uncached input)
 * on a text part that ends with it. Every section is a block of its own in Anthropic and Bedrock
 * messages; the archive line and seal follow the marker. The next compaction keeps the sections as
 * they are and adds one, so its request reads them from the provider's cache up to the marker the
 * last one placed. Other formats get no marker (Gemini caches without one).
 *
 * The marker is placed only while the request stays within the provider's 4 markers: those in the
 * head and the kept tail, `outside`, and this one. The summary keeps its marker in the transcript
 * until the next compaction replaces it: count it among your own.
 *
 * @param options - `outside`: markers the request carries where the hook does not see them (2 by default)
 * @returns the value of the `cacheMarker` option
 * @example
 * ```ts
 * import { compactor } from "context-compactor";
 * import { markFrozenSections } from "context-compactor/cache";
 *
 * // The system prompt and the last message carry your own markers: 2, the default.
 * const beforeLlm = compactor({ maxTokens: 150_000, summarize, cacheMarker: markFrozenSections() });
 * ```
 */
export function markFrozenSections(options: FrozenSectionsMarkerOptions = {}): CacheMarker {
  const given = options as Record<string, unknown> | null;
  if (typeof given !== "object" || given === null || Array.isArray(given))
    throw new TypeError(
      `Expected the options of \`markFrozenSections\` to be an object, got ${given === null ? "null" : Array.isArray(given) ? "an array" : typeof given}`,
    );
  const unknown = Object.keys(given).find((key) => key !== "outside");
  if (unknown !== undefined)
    throw new TypeError(
      `Unknown option \`${unknown.slice(0, 40)}\` of \`markFrozenSections\`. Known options: \`outside\`.`,
    );
  const outside = given["outside"] ?? 2;
  if (typeof outside !== "number")
    throw new TypeError(
      `Expected \`outside\` to be an integer from 0 to ${MAX_MARKERS - 1}, got a value of type ${typeof outside}`,
    );
  // A request holds at most MAX_MARKERS: with as many outside, no marker would ever be placed.
  if (!Number.isInteger(outside) || outside < 0 || outside >= MAX_MARKERS)
    throw new RangeError(
      `Expected \`outside\` to be an integer from 0 to ${MAX_MARKERS - 1} (the provider takes ${MAX_MARKERS} markers in a request), got \`${outside}\` (number)`,
    );
  return (summary, format, others) => {
    const key = markerKeys[format];
    // Where the provider takes no more markers, the sections are still blocks of their own.
    return (
      asCached(
        summary as MessageRecord,
        format,
        key !== undefined && outside + markersIn(others, key) + 1 <= MAX_MARKERS,
      ) ?? summary
    );
  };
}
