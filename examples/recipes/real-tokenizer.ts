import { countTokens as tokenize } from "gpt-tokenizer/encoding/o200k_base";
import { compactor } from "context-compactor";
import { createCachedCounter } from "context-compactor/expert";

// Exact counts from a real tokenizer. Each message is tokenized once and remembered by identity,
// so a turn only tokenizes its new messages (treat messages as immutable: replace, do not edit).
const countTokens = createCachedCounter((message: object) => tokenize(JSON.stringify(message)));

export const beforeLlm = compactor({
  maxTokens: 120_000,
  countTokens,
  summarize: (older) => `${older.length} earlier messages`,
});
