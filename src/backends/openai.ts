import type { AnyMessage, Summarize, SummaryContext } from "../ground/types.js";
import { describeValue } from "../ground/describe-value.js";
import { isInstructionItem, openaiCompactionIn } from "../dialects/native-compaction-parts.js";
import { rejectUnknownKeys } from "../ground/unknown-keys.js";
import { extractiveSummary } from "../summary-kit/extractive-summary.js";
import { summaryTextIn } from "../dialects/library-messages.js";

/**
 * The one call of an `openai` client this adapter makes (`client.responses.compact`, SDK
 * `ResponseCompactParams` → `CompactedResponse` in openai/resources/responses/responses.d.ts).
 * Any object with that method will do: the package does not depend on `openai`.
 */
export interface ResponsesCompactClient {
  responses: {
    // The SDK's body, as wide as the SDK declares it (`model: … | null`, `input?: string |
    // Array<ResponseInputItem> | null`, `instructions?: string | null` in ResponseCompactParams), so
    // that its method, which takes its own item types, fits.
    compact(
      body: { model: string | null; input?: string | readonly object[] | null; instructions?: string | null },
      options?: { signal?: AbortSignal },
    ): PromiseLike<{ output?: readonly object[] | null }>;
  };
}

/** Options of `openaiCompaction`. */
export interface OpenAICompactionOptions {
  /** The model that compacts, as `responses.compact` takes it: the one the conversation runs on. */
  model: string;
  /**
   * Instructions for the compaction, sent as `instructions` (marked deprecated in the SDK, still accepted).
   * @default none: OpenAI's own
   */
  instructions?: string;
}

/**
 * A `summarize` backed by OpenAI's own compaction (`POST /v1/responses/compact`), for a transcript
 * of Responses input items. It sends the kept head and the older part, and returns the output
 * items as they came (the user messages, then one encrypted `compaction` item) as a replacement
 * for them; the system and developer messages stay in the head. The item is readable only by
 * OpenAI, so the result carries no `text`. A failed call, or a response without a compaction
 * item, rejects (the hook reports `SUMMARIZE_FAILED` with OpenAI's reason): put it first in
 * `firstOf` with a summarizer of your own after it.
 *
 * @param client - your `openai` client (`new OpenAI()`), or anything with `responses.compact`
 * @param options - `model`, `instructions`
 * @returns a `summarize` for `compactor` or `statefulCompactor`
 * @example
 * ```ts
 * import OpenAI from "openai";
 * import { compactor } from "context-compactor";
 * import { openaiCompaction } from "context-compactor/openai";
 *
 * const hook = compactor({ maxTokens: 100_000, summarize: openaiCompaction(new OpenAI(), { model: "gpt-5.2" }), fallback: extractiveSummary });
 * ```
 */
export function openaiCompaction<M extends AnyMessage = AnyMessage>(
  client: ResponsesCompactClient,
  options: OpenAICompactionOptions,
): Summarize<M> {
  if (typeof (client as Partial<ResponsesCompactClient> | undefined)?.responses?.compact !== "function") {
    throw new TypeError(
      `Expected \`client\` to be an OpenAI client with \`responses.compact\`, got ${describeValue(client)}`,
    );
  }
  if (typeof options !== "object" || options === null)
    throw new TypeError(`Expected \`options\` to be an object with \`model\`, got ${describeValue(options)}`);
  rejectUnknownKeys(options, ["model", "instructions"], "");
  const { model, instructions } = options;
  if (typeof model !== "string" || model === "")
    throw new TypeError(`Expected \`model\` to be a model name, got ${describeValue(model)}`);
  if (instructions !== undefined && typeof instructions !== "string")
    throw new TypeError(`Expected \`instructions\` to be a string, got ${describeValue(instructions)}`);
  const madeBy = { provider: "openai", model };
  const summarize = async (older: M[], context: SummaryContext) => {
    const head = (context.head ?? []) as object[];
    const wanted = [instructions, context.instructions]
      .filter((text): text is string => typeof text === "string" && text.trim() !== "")
      .join("\n\n");
    // The provider's compaction replaces the whole history: the earlier summary goes in with the older messages.
    const body = {
      model,
      input: head.concat((context.earlier ?? []) as object[], older as object[]),
      ...(wanted === "" ? {} : { instructions: wanted }),
    };
    const response = await client.responses.compact(body, { signal: context.signal });
    // "The compacted list of output items. This is a list of all user messages, followed by a single
    // compaction item." (SDK CompactedResponse.output)
    const { output, compacted } = openaiCompactionIn(response);
    if (!compacted) throw new Error("responses.compact returned no compaction item");
    // The system prompt is kept in the head, before the replacement.
    const messages = output.filter((item) => !isInstructionItem(item));
    // The item is encrypted: its readable shadow is the model-free summary of what it replaced, what
    // a later summarizer rolls forward and what is sent instead when the model or provider changes.
    const text = extractiveSummary(older, {
      maxTokens: Math.max(1, context.maxSummaryTokens),
      previousSummary: earlierSummaryOf(context),
    });
    return { messages, text, madeBy };
  };
  // Who this summarizer is: `statefulCompactor` sends a stored item back only to the same provider and model.
  // Named after its factory, which is how `onCompacted`'s `madeBy` names it.
  Object.defineProperty(summarize, "name", { value: "openaiCompaction" });
  return Object.assign(summarize, { madeBy });
}

/** What the shadow of a compaction of the whole history carries forward: the earlier summary in full, else what the context hands over. */
function earlierSummaryOf(context: SummaryContext): string | undefined {
  for (const message of context.earlier ?? []) {
    const text = typeof message === "object" && message !== null ? summaryTextIn(message) : undefined;
    if (text !== undefined) return text;
  }
  return context.previousSummary;
}
