import type { AnyMessage } from "../ground/types.js";
import { expectedMessage } from "../ground/describe-value.js";
import { withDefaults } from "../ground/option-defaults.js";
import { checkedRecovery, compactForRetry } from "../recovery/compact-for-retry.js";
import { isContextOverflowError } from "../recovery/is-context-overflow-error.js";
import { adapterCompactor, type AdapterOptions } from "./adapter-compactor.js";
import { asPromptMessage } from "../dialects/ai-sdk-prompt.js";

/** What Mastra's request context holds for this adapter: `get` by key. */
interface RequestContextLike {
  get(key: string): unknown;
}

/** The part of Mastra's `processLLMRequest` arguments this processor reads. */
export interface LLMRequestArgs<P extends readonly AnyMessage[] = AnyMessage[]> {
  /** The provider-level prompt of this model call (`LanguageModelV2Prompt`): what is sent. */
  prompt: P;
  requestContext?: RequestContextLike;
  /** Shared by the processor's methods within one `generate` or `stream`. */
  state: Record<string, unknown>;
  abortSignal?: AbortSignal;
  /** "All completed steps so far" (`ProcessLLMRequestArgs.steps`, the AI SDK's `StepResult`s): the last one's `response.body`, when the step kept it. */
  steps?: readonly { response?: { body?: unknown } }[];
}

/** The part of Mastra's `processAPIError` arguments this processor reads. */
export interface APIErrorArgs {
  error: unknown;
  state: Record<string, unknown>;
  retryCount: number;
}

/**
 * A processor for a Mastra `Agent`, as an input processor (`inputProcessors`) and an error
 * processor (`errorProcessors`). Generic in the prompt, so that it hands back the type of prompt
 * Mastra gave it (`LanguageModelV2Prompt`) without this package naming Mastra's types.
 */
export interface CompactingInputProcessor {
  readonly id: "context-compactor";
  readonly name: string;
  processLLMRequest<P extends AnyMessage[]>(args: LLMRequestArgs<P>): Promise<{ prompt: P } | undefined>;
  processAPIError(args: APIErrorArgs): Promise<{ retry: boolean } | undefined>;
}

/** Options of `toInputProcessor`: those of `statefulCompactor`, and the share of a retry's budget after an overflow. */
export type InputProcessorCompactionOptions<M extends AnyMessage = AnyMessage> = AdapterOptions<M, LLMRequestArgs> & {
  /**
   * After the provider rejects a call as too long: the retry's budget as a share of the rejected
   * prompt's estimate.
   * @default 0.6
   */
  retryShare?: number;
};

/** Set in the processor's state by `processAPIError`: the next call is the retry of an overflow. */
const RETRY_AFTER_OVERFLOW = "context-compactor:retry-after-overflow";

/**
 * The thread of the call, as Mastra's memory puts it in the request context (`MastraMemory`), or
 * as a caller sets it under `mastra__threadId`; undefined without either.
 */
function threadIdOf(context: RequestContextLike | undefined): string | undefined {
  if (typeof context?.get !== "function") return undefined;
  const memory = context.get("MastraMemory") as { thread?: { id?: unknown } } | undefined;
  const id = memory?.thread?.id ?? context.get("mastra__threadId");
  return typeof id === "string" && id !== "" ? id : undefined;
}

/**
 * Makes a Mastra input processor that compacts the prompt of every model call of an `Agent`,
 * for `new Agent({ inputProcessors: [toInputProcessor(options)] })`. It works in
 * `processLLMRequest`, on the provider-level prompt of each call, whose changes Mastra sends but
 * never writes back to the thread: the thread keeps every message, and the compaction lives in a
 * store (`statefulCompactor`) under the thread's id (from Mastra's memory, or the request
 * context's `mastra__threadId`), so the summary is made once per crossing of the budget and reused
 * on every later step and turn, and a fresh agent per request over a shared `store` continues
 * from it. `summary.role` is `"user"`: the summary is a user message of one text part.
 *
 * Given in `errorProcessors` as well, it recovers from the provider's context-overflow rejection:
 * `processAPIError` asks Mastra to retry once, and that retry is compacted forced to `retryShare`
 * of the rejected prompt's estimate (Mastra shares the processor's `state` between the two).
 *
 * @param options - `statefulCompactor` options (`store`, `conversationId` as a string or a function of the arguments), and `retryShare`
 * @returns the processor
 * @example
 * ```ts
 * import { Agent } from "@mastra/core/agent";
 * import { toInputProcessor } from "context-compactor/mastra";
 *
 * const compaction = toInputProcessor({ maxTokens: 100_000, summarize });
 * const agent = new Agent({ id: "researcher", name: "researcher", instructions, model, tools, inputProcessors: [compaction], errorProcessors: [compaction] });
 * ```
 */
export function toInputProcessor<M extends AnyMessage = AnyMessage>(
  options: InputProcessorCompactionOptions<M>,
): CompactingInputProcessor {
  if (typeof options !== "object" || options === null)
    throw new TypeError(expectedMessage("options", "an object", options));
  const { retryShare, ...compactorOptions } = options;
  const { conversationId } = compactorOptions;
  const { compact, idOf } = adapterCompactor<M, LLMRequestArgs>(
    {
      ...compactorOptions,
      conversationId: conversationId ?? ((args: LLMRequestArgs) => threadIdOf(args.requestContext)),
    },
    { summary: { role: "user" } },
  );
  // The retry compacts with the same options, less the store's, the archive's and the budget's.
  const {
    store: _store,
    conversationId: _id,
    storeTimeoutMs: _timeout,
    maxBranches: _branches,
    archive: _archive,
    maxTokens: _max,
    keepTail: _tail,
    summary: { maxTokens: _summary, ...summary } = {},
    events: { onStoreError: _onStoreError, ...events } = {},
    ...rest
  } = compactorOptions;
  const retryOptions = { ...rest, summary, events };
  const { share } = checkedRecovery({ ...retryOptions, ...(retryShare === undefined ? {} : { retryShare }) });
  return {
    id: "context-compactor",
    name: "context-compactor",
    async processLLMRequest<P extends AnyMessage[]>(args: LLMRequestArgs<P>) {
      const signal = args.abortSignal ? { signal: args.abortSignal } : {};
      const messages = args.prompt as unknown as M[];
      let prompt: M[] | null;
      if (args.state[RETRY_AFTER_OVERFLOW] === true) {
        delete args.state[RETRY_AFTER_OVERFLOW];
        prompt = await compactForRetry(
          messages,
          share,
          withDefaults({ summary: { role: "user" } }, retryOptions),
          signal,
        );
      } else {
        // The provider's own response to the last step, when the step kept its body (the AI SDK's
        // `StepResult.response.body`, "available only for providers that use HTTP requests").
        const body = args.steps?.[args.steps.length - 1]?.response?.body;
        const response = typeof body === "object" && body !== null ? { response: body } : {};
        prompt = (await compact(messages, { ...idOf(args), ...signal, ...response }))?.messages ?? null;
      }
      return prompt === null ? undefined : { prompt: prompt.map(asPromptMessage) as unknown as P };
    },
    async processAPIError({ error, state, retryCount }) {
      if (retryCount > 0 || !isContextOverflowError(error)) return undefined;
      state[RETRY_AFTER_OVERFLOW] = true;
      return { retry: true };
    },
  };
}
