import { trace } from "@opentelemetry/api";
import type OpenAI from "openai";
import type { ChatCompletionMessageParam } from "openai/resources/chat/completions";
import { compactor, summarizeWith, type ReportedUsage } from "context-compactor";
import { otelEvents, recordSummaryUsage } from "context-compactor/otel";

// Your tracing set-up (NodeSDK, @opentelemetry/sdk-trace-node or a vendor's distribution)
// registers the tracer provider and the context manager; the library only calls the API.
const tracer = trace.getTracer("support-agent");

/** One chat's agent: every compaction is a `compaction` span under the turn's `invoke_agent` span. */
export function supportAgent(client: OpenAI, chatId: string, maxTokens = 100_000) {
  const beforeLlm = compactor<ChatCompletionMessageParam>({
    maxTokens,
    summarize: summarizeWith(async ({ system, user }, { signal }) => {
      const response = await client.chat.completions.create(
        { model: "gpt-4.1-mini", messages: [{ role: "system", content: system }, { role: "user", content: user }] },
        { signal },
      );
      // The summarizer's usage, on the compaction span (gen_ai.usage.input_tokens and output_tokens).
      recordSummaryUsage({ inputTokens: response.usage?.prompt_tokens, outputTokens: response.usage?.completion_tokens });
      return response.choices[0]?.message.content ?? "";
    }),
    events: otelEvents(tracer, { attributes: { "gen_ai.conversation.id": chatId } }),
  });

  let messages: ChatCompletionMessageParam[] = [{ role: "system", content: "You are a helpful support agent." }];
  // What the provider counted of the last request: the hook counts from it, not from bytes / 4.
  let usage: ReportedUsage | undefined;

  return async function reply(userText: string): Promise<string> {
    const attributes = { "gen_ai.operation.name": "invoke_agent", "gen_ai.agent.name": "support", "gen_ai.conversation.id": chatId };
    return tracer.startActiveSpan("invoke_agent support", { attributes }, async (span) => {
      try {
        messages.push({ role: "user", content: userText });
        // A compaction here marks this span gen_ai.conversation.compacted: true.
        const compacted = await beforeLlm(usage ? { messages, usage } : { messages });
        if (compacted) messages = compacted.messages;
        const response = await client.chat.completions.create({ model: "gpt-4.1", messages });
        if (response.usage) usage = { inputTokens: response.usage.prompt_tokens, messageCount: messages.length };
        const message = response.choices[0]!.message;
        messages.push(message);
        return message.content ?? "";
      } finally {
        span.end();
      }
    });
  };
}
