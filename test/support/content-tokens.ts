// A stand-in for a provider's count of messages, for tests that pass usage: each message read as a
// BPE tokenizer reads it, at its bytes / 4 or its word pieces, whichever is more. Dense text (ids,
// digits, runs of punctuation) splits finer than bytes / 4 says, and prose does not; the word
// pieces are held to o200k's count in test/word-pieces.test.ts. A test multiplies it by a ratio
// for a tokenizer's own rate. A stand-in that counts every message at one ratio of bytes / 4
// would count a prose summary of a transcript of UUIDs as densely as the UUIDs, which no tokenizer
// does.
import { estimateMessageTokens } from "../../src/counting/estimate-tokens.js";
import { messageWordPieces } from "../../src/counting/word-pieces.js";

export function contentTokens(messages: readonly unknown[]): number {
  let total = 0;
  for (let index = 0; index < messages.length; index++) {
    const estimate = estimateMessageTokens(messages[index], index);
    total += Math.max(estimate, messageWordPieces(messages[index], estimate));
  }
  return total;
}
