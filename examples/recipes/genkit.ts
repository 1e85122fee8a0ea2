import { genkit, z, type MessageData } from "genkit";
import { memoryStore, summarizeWith } from "context-compactor";
import { toModelMiddleware } from "context-compactor/genkit";

// Register your model's plugin here (for these ids, googleAI() from @genkit-ai/google-genai).
const ai = genkit({ plugins: [] });
const model = "googleai/gemini-2.5-flash";

const summarize = summarizeWith(async ({ system, user }, { signal }) => {
  const { text } = await ai.generate({ model: "googleai/gemini-2.5-flash-lite", system, prompt: user, abortSignal: signal });
  return text;
});

// Where each chat's compaction lives between requests: redisStore from context-compactor/redis when
// the route runs on several instances.
const store = memoryStore();

const lookup = ai.defineTool(
  { name: "lookup", description: "Look up a fact", inputSchema: z.object({ q: z.string() }), outputSchema: z.string() },
  async ({ q }) => `facts about ${q}`,
);

/** One turn of a chat: the saved history in, the new history out (without the system message, which `system` adds). */
export async function reply(chatId: string, history: MessageData[], text: string): Promise<MessageData[]> {
  const response = await ai.generate({
    model,
    system: "You are a research agent. Look every fact up.",
    messages: history,
    prompt: text,
    tools: [lookup],
    // Compacts before every model call of the tool loop; Genkit's history stays whole.
    use: [toModelMiddleware<MessageData>({ maxTokens: 100_000, summarize, store, conversationId: chatId })],
  });
  return response.messages.filter((message) => message.role !== "system");
}
