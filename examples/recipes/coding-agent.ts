import { compactor } from "context-compactor";
import { planCompaction } from "context-compactor/expert";
import { renderTranscript } from "context-compactor/summary-kit";

// A coding agent: one request, then hundreds of tool calls with large outputs.
export const beforeLlm = compactor({
  maxTokens: 150_000,
  ladder: {
    // First, model-free: clear the content of all but the 5 newest tool results.
    maskToolResults: { keepRecent: 5 },
    // If that is not enough, keep the request and the newest whole tool groups, summarize the rest.
    splitInsideTurn: true,
  },
  summarize: async (older) => callYourModel(`Summarize this work so far:\n\n${renderTranscript(older)}`),
  events: { onCompacted: ({ strategy, tokensBefore, tokensAfter }) => console.log(`${strategy}: ${tokensBefore} → ${tokensAfter} tokens`) },
});

// What would happen right now, without calling any model:
export const preview = (messages: object[]) => planCompaction(messages, { maxTokens: 150_000, ladder: { maskToolResults: true, splitInsideTurn: true } });

declare function callYourModel(prompt: string): Promise<string>;
