// Compacts one real support conversation and prints the plan and the token counts.
import { readFileSync } from "node:fs";
import { compact, estimateTokens, findToolPairProblems, planCompaction } from "../dist/index.js";

const file = new URL("./data/tau2/gpt41_retail_task5_trial0.json", import.meta.url);
const messages = JSON.parse(readFileSync(file, "utf8"));
const maxTokens = Math.floor(estimateTokens(messages) / 2);
const plan = planCompaction(messages, { maxTokens });
console.log(`${messages.length} messages, ${plan.tokensBefore} tokens, budget ${maxTokens}`);
console.log(`plan: ${plan.action} — head ${plan.head.length}, older ${plan.older.length}, tail ${plan.tail.length}`);
const result = await compact(messages, { maxTokens, summarize: (older) => `${older.length} earlier messages` });
console.log(`after: ${result.messages.length} messages, ${estimateTokens(result.messages)} tokens, tool-pair problems: ${findToolPairProblems(result.messages).length}`);
