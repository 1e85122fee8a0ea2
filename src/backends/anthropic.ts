import type { AnyMessage, Summarize, SummaryContext } from "../ground/types.js";
import { describeValue } from "../ground/describe-value.js";
import { anthropicCompactionIn, anthropicSystemApart } from "../dialects/native-compaction-parts.js";
import { rejectUnknownKeys } from "../ground/unknown-keys.js";
import { integer } from "../ground/checks.js";

/**
 * The beta that enables the on-demand `compaction` request parameter: the SDK's own runner
 * requires it for `compactBeforeNextTurn()` ("Requires the `compact-2026-09-04` beta",
 * @anthropic-ai/sdk/lib/tools/BetaToolRunner.d.ts). Later requests that send the block carry it too.
 */
export const ANTHROPIC_COMPACTION_BETA = "compact-2026-09-04";

/**
 * The one call of an `@anthropic-ai/sdk` client this adapter makes (`client.beta.messages.create`
 * with `compaction`, SDK `BetaCompactionConfig`). Any object with that method will do: the package
 * does not depend on `@anthropic-ai/sdk`.
 */
export interface AnthropicCompactionClient {
  beta: {
    messages: {
      create(
        body: AnthropicCompactionRequest,
        options?: { signal?: AbortSignal },
      ): PromiseLike<{ role?: unknown; content?: readonly object[] | null; stop_reason?: unknown }>;
    };
  };
}

/**
 * The body of the compaction request, as wide as the SDK's `MessageCreateParamsNonStreaming`
 * declares it (`system?: string | Array<BetaTextBlockParam>`, `tools?: Array<BetaToolUnion>`,
 * `compaction?: BetaCompactionConfig | null`, `betas?: Array<AnthropicBeta>`), so that the SDK's
 * method, which takes its own block types, fits. This adapter always sends `compaction` and `betas`.
 */
export interface AnthropicCompactionRequest {
  model: string;
  max_tokens: number;
  system?: string | readonly object[];
  tools?: readonly object[];
  messages: readonly object[];
  compaction?: { type: "summarize"; instructions?: string | null } | null;
  betas?: readonly string[];
}

/** Options of `anthropicCompaction`. */
export interface AnthropicCompactionOptions {
  /** The model that compacts: the one the conversation runs on. */
  model: string;
  /**
   * `max_tokens` of the compaction request.
   * @default 8192
   */
  maxTokens?: number;
  /**
   * Replaces the server's summarization prompt (`compaction.instructions`).
   * @default none: Anthropic's own
   */
  instructions?: string;
  /**
   * More `anthropic-beta` values for the request (a long-context beta, for example). They are added
   * to the compaction beta, never put in its place: without it the API ignores the `compaction`
   * parameter and every compaction would fall back.
   * @default none: the request sends `["compact-2026-09-04"]`
   */
  betas?: readonly string[];
  /**
   * The tools of the conversation, sent as `tools` so that the block records the tool set in force.
   * @default none
   */
  tools?: readonly object[];
}

/**
 * A `summarize` backed by Anthropic's own compaction on demand (the `compaction` parameter of the
 * Messages API, beta): it sends the system prompt as `system`, your `tools`, and the messages of
 * the head and the older part, and returns the response, `{ role: "assistant", content: [the
 * signed compaction block] }`, as the replacement. It is placed first in `messages`, where the
 * API requires it ("The `compaction` block is not the first block of the conversation" is
 * `compaction_block_misplaced`), and it is sent back byte for byte. Its `content` is plain text,
 * kept as `text`, so a later summarizer of your own can roll it forward. A failed call (529
 * included), or a response without a compaction block with content, rejects (the hook reports
 * `SUMMARIZE_FAILED` with Anthropic's reason): put it first in `firstOf`, with `onError: "fallback"`.
 *
 * @param client - your `@anthropic-ai/sdk` client (`new Anthropic()`), or anything with `beta.messages.create`
 * @param options - `model`, `maxTokens`, `instructions`, `betas`, `tools`
 * @returns a `summarize` for `compactor` or `statefulCompactor`
 * @example
 * ```ts
 * import Anthropic from "@anthropic-ai/sdk";
 * import { compactor } from "context-compactor";
 * import { anthropicCompaction } from "context-compactor/anthropic";
 *
 * const hook = compactor({ maxTokens: 100_000, summarize: anthropicCompaction(new Anthropic(), { model: "claude-opus-4-7" }), fallback: extractiveSummary });
 * ```
 */
export function anthropicCompaction<M extends AnyMessage = AnyMessage>(
  client: AnthropicCompactionClient,
  options: AnthropicCompactionOptions,
): Summarize<M> {
  if (typeof (client as Partial<AnthropicCompactionClient> | undefined)?.beta?.messages?.create !== "function") {
    throw new TypeError(
      `Expected \`client\` to be an Anthropic client with \`beta.messages.create\`, got ${describeValue(client)}`,
    );
  }
  if (typeof options !== "object" || options === null)
    throw new TypeError(`Expected \`options\` to be an object with \`model\`, got ${describeValue(options)}`);
  rejectUnknownKeys(options, ["model", "maxTokens", "instructions", "betas", "tools"], "");
  const { model, maxTokens = 8192, instructions, betas = [], tools } = options;
  if (typeof model !== "string" || model === "")
    throw new TypeError(`Expected \`model\` to be a model name, got ${describeValue(model)}`);
  integer(maxTokens, "maxTokens", 1);
  if (instructions !== undefined && typeof instructions !== "string")
    throw new TypeError(`Expected \`instructions\` to be a string, got ${describeValue(instructions)}`);
  if (!Array.isArray(betas) || !betas.every((beta) => typeof beta === "string"))
    throw new TypeError(`Expected \`betas\` to be a list of strings, got ${describeValue(betas)}`);
  if (tools !== undefined && !Array.isArray(tools))
    throw new TypeError(`Expected \`tools\` to be a list of tool definitions, got ${describeValue(tools)}`);
  const madeBy = { provider: "anthropic", model };
  const summarize = async (older: M[], context: SummaryContext) => {
    // The provider's compaction replaces the whole history: the earlier summary goes in with the older messages.
    const all = ((context.head ?? []) as object[]).concat((context.earlier ?? []) as object[], older as object[]);
    const { system, messages } = anthropicSystemApart(all);
    const wanted = [instructions, context.instructions]
      .filter((text): text is string => typeof text === "string" && text.trim() !== "")
      .join("\n\n");
    const body: AnthropicCompactionRequest = {
      model,
      max_tokens: maxTokens,
      ...(system.length === 0 ? {} : { system: system.join("\n\n") }),
      ...(tools === undefined ? {} : { tools: tools.slice() }),
      messages,
      compaction: wanted === "" ? { type: "summarize" } : { type: "summarize", instructions: wanted },
      betas: withCompactionBeta(betas),
    };
    const response = await client.beta.messages.create(body, { signal: context.signal });
    // A block with null content is a failed compaction the server treats as a no-op (SDK BetaCompactionBlock).
    const { content, text } = anthropicCompactionIn(response);
    if (text === undefined) {
      throw new Error(
        `the compaction request returned no compaction block with content (stop_reason ${describeValue(response?.stop_reason)})`,
      );
    }
    return { messages: [{ role: "assistant", content }], text, madeBy };
  };
  // Who this summarizer is: `statefulCompactor` sends a stored block back only to the same provider and model.
  // Named after its factory, which is how `onCompacted`'s `madeBy` names it.
  Object.defineProperty(summarize, "name", { value: "anthropicCompaction" });
  return Object.assign(summarize, { madeBy });
}

/** The compaction beta first, then the caller's own, each once. */
const withCompactionBeta = (betas: readonly string[]): string[] => [...new Set([ANTHROPIC_COMPACTION_BETA, ...betas])];
