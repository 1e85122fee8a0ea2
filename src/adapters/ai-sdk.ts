import type { AnyMessage } from "../hook/types.js";
import { hookFrom, rollingCompaction, type HookOrOptions } from "./rolling-compaction.js";

/** What the AI SDK passes to `prepareStep` (the part this adapter reads). */
export interface PrepareStepOptions<M extends AnyMessage> {
  messages: M[];
  stepNumber?: number;
}

/** A `prepareStep` function: the compacted messages for this step, or `{}` to leave them. */
export type CompactingPrepareStep = <M extends AnyMessage>(options: PrepareStepOptions<M>) => Promise<{ messages?: M[] }>;

/**
 * Makes a Vercel AI SDK `prepareStep` that compacts the step's messages, for `generateText`,
 * `streamText` and agents. Given options, it builds a `compactor` whose `summaryRole` defaults to
 * `"user"`: the system prompt travels as `system`/`instructions`, and AI SDK 7 refuses system
 * messages inside `messages` unless `allowSystemInMessages` is set.
 *
 * The AI SDK rebuilds each step's messages from the full history, so the adapter remembers its last
 * compaction and continues from it: `summarize` runs when the budget is crossed again, not on every step.
 *
 * @param optionsOrHook - `compactor` options, or a ready before-LLM hook
 * @returns `({ messages }) => Promise<{ messages } | {}>`
 * @example
 * ```ts
 * import { generateText } from "ai";
 * import { toPrepareStep } from "context-compactor/ai-sdk";
 * await generateText({ model, system, messages, tools, prepareStep: toPrepareStep({ maxTokens: 100_000, summarize }) });
 * ```
 */
export function toPrepareStep<M extends AnyMessage = AnyMessage>(optionsOrHook: HookOrOptions<M>): CompactingPrepareStep {
  const compact = rollingCompaction(hookFrom(optionsOrHook, { summaryRole: "user" }));
  return (async ({ messages }: PrepareStepOptions<M>) => {
    const compacted = await compact(messages);
    return compacted === null ? {} : { messages: compacted };
  }) as CompactingPrepareStep;
}
