// pi end to end on Node 22 (@earendil-works/pi-agent-core 1.x needs Node 22.19 or later): the
// recipe of docs/recipes/pi.md as written (examples/recipes/pi.ts, imported as it is: Node 22
// strips its types), with pi's real `Agent`, its real `Models` collection and a real tool. The
// recipe's Anthropic models are answered offline by pi-ai's own faux provider, set in the recipe's
// `models` under the Anthropic provider's id, as an app swaps a provider: the agent's model calls
// `lookup` for each question and answers at length once the tool has replied (each turn adds about
// 25,000 tokens against the recipe's budget of 100,000), the summarizer answers with a numbered
// summary. Prints the run's figures, then the results, as mastra-end-to-end.mjs does.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { Agent } from "@earendil-works/pi-agent-core";
import {
  createModels,
  fauxAssistantMessage,
  fauxProvider,
  fauxToolCall,
  getCurrentSystemMessage,
} from "@earendil-works/pi-ai";
import { toTransformContext } from "../dist/pi.js";
import { assert, check, results } from "./checks.mjs";
import { crossingsOf } from "./crossings.mjs";
import { SUMMARY_PREFIX, findToolPairProblems } from "../dist/expert.js";

const budget = 100_000;
const turns = 40;
const systemPrompt = "You are a research agent. Look every fact up.";
const prefix = JSON.stringify(SUMMARY_PREFIX).slice(1, -1);

/** The version of a package as the recipe resolves it (from examples/recipes/). */
function versionSeenByRecipe(name) {
  const require = createRequire(new URL("../examples/recipes/pi.ts", import.meta.url));
  return JSON.parse(readFileSync(require.resolve(`${name}/package.json`), "utf8")).version;
}

let figures;
await check(
  `pi (@earendil-works/pi-agent-core ${versionSeenByRecipe("@earendil-works/pi-agent-core")}), the recipe as written: a summary per crossing, a bounded summarizer input, pairs whole, the prompt and tools kept, the summary received`,
  async () => {
    const requests = [];
    const summarizerInputs = [];
    const faux = fauxProvider({
      provider: "anthropic",
      api: "anthropic-messages",
      models: [{ id: "claude-sonnet-4-6" }, { id: "claude-haiku-4-5" }],
    });
    const respond = (context, _options, _state, model) => {
      if (model.id === "claude-haiku-4-5") {
        summarizerInputs.push(JSON.stringify(context.messages).length);
        return fauxAssistantMessage(`Summary ${summarizerInputs.length}: the researcher looked facts up.`);
      }
      requests.push(structuredClone(context.messages));
      const n = requests.length;
      if (context.messages.at(-1)?.role === "toolResult")
        return fauxAssistantMessage(`Answer ${n}: ${"finding ".repeat(7_500)}`);
      return fauxAssistantMessage([fauxToolCall("lookup", { q: `question ${n}` })], { stopReason: "toolUse" });
    };
    faux.setResponses(Array.from({ length: 1_000 }, () => respond));

    const { agent, ask, models } = await import("../examples/recipes/pi.ts");
    models.setProvider(faux.provider);
    for (let turn = 0; turn < turns; turn++) await ask(`Question ${turn}: ${"context ".repeat(5_000)}`);
    assert(agent.state.errorMessage === undefined, `the agent failed: ${agent.state.errorMessage}`);

    const crossings = crossingsOf(requests, budget);
    const summaries = summarizerInputs.length;
    figures = { crossings, summarizeCalls: summaries, largestSummarizerInput: Math.max(0, ...summarizerInputs) };
    assert(requests.length === 2 * turns, `${requests.length} model calls`);
    assert(crossings >= 3, `${crossings} crossings`);
    assert(summaries <= crossings + 1, `${summaries} summaries for ${crossings} crossings`);
    // The summarizer reads the older messages of one budget and the summary before, never the whole
    // history: its input does not grow with the conversation.
    const largest = figures.largestSummarizerInput;
    assert(
      largest <= budget * 4 * 1.25 && largest <= summarizerInputs[0] * 1.5,
      `summarizer inputs of ${summarizerInputs.join(", ")} characters`,
    );
    for (const request of requests)
      assert(findToolPairProblems(request).length === 0, "a request with a broken tool pair");
    // pi 1.x carries the system prompt and the tools in the transcript's leading system message: every request keeps it.
    for (const request of requests) {
      const [first] = request;
      assert(
        first?.role === "system" &&
          first.content === systemPrompt &&
          first.toolsAdded?.map((tool) => tool.name).join() === "lookup",
        `a request opening with ${JSON.stringify(first).slice(0, 200)}`,
      );
    }
    // The count is anchored on what the provider reported: each request within the budget as it was counted.
    const reported = agent.state.messages.flatMap((m) =>
      m.role === "assistant" ? [m.usage.input + m.usage.cacheRead + m.usage.cacheWrite] : [],
    );
    assert(
      reported.length === 2 * turns && Math.max(...reported) <= budget,
      `reported inputs up to ${Math.max(...reported)} tokens`,
    );
    const last = JSON.stringify(requests.at(-1));
    assert(
      last.includes(prefix) && last.includes(`Summary ${summaries}:`),
      `the last request does not hold Summary ${summaries}:`,
    );
    // pi's own transcript is never rewritten: every question is there, and no summary among them.
    const history = agent.state.messages;
    assert(
      history.filter((m) => m.role === "user").length === turns &&
        !history.some((m) => JSON.stringify(m).includes(prefix)),
      "the history was rewritten",
    );
    return `${turns} turns, ${crossings} crossings, ${summaries} summaries, largest summarizer input ${largest} characters, reported inputs up to ${Math.max(...reported)} tokens, ${process.version}`;
  },
);

await check(
  "pi: the system messages pi adds mid-conversation (a tool added, a prompt section) stay in every request after them, through compactions",
  async () => {
    const models = createModels();
    const faux = fauxProvider();
    models.setProvider(faux.provider);
    const requests = [];
    // Each question calls the tool the transcript declared last; each tool result gets an answer.
    faux.setResponses(
      Array.from({ length: 200 }, () => (context) => {
        requests.push(structuredClone(context.messages));
        const n = requests.length;
        if (context.messages.at(-1)?.role === "toolResult") return fauxAssistantMessage(`Answer ${n}.`);
        const tools = getCurrentSystemMessage(context.messages)?.toolsAdded ?? [];
        return fauxAssistantMessage([fauxToolCall(tools.at(-1)?.name ?? "lookup", { q: `question ${n}` })], {
          stopReason: "toolUse",
        });
      }),
    );
    const tool = (name) => ({
      name,
      label: name,
      description: `${name} a fact`,
      parameters: { type: "object", properties: { q: { type: "string" } }, required: ["q"] },
      execute: async () => ({ content: [{ type: "text", text: "fact ".repeat(150) }], details: {} }),
    });
    let summaries = 0;
    const agent = new Agent({
      initialState: { systemPrompt, model: faux.getModel(), tools: [tool("lookup")] },
      streamFn: models.streamSimple.bind(models),
      transformContext: toTransformContext({ maxTokens: 2_000, summarize: () => `summary ${++summaries}` }),
    });
    const question = (turn) => ({
      role: "user",
      content: `Question ${turn}: ${"context ".repeat(30)}`,
      timestamp: Date.now(),
    });
    let changedAt;
    for (let turn = 0; turn < 14; turn++) {
      if (turn === 2) {
        // pi announces the new tool in a system message before the next request.
        agent.state.tools = [tool("lookup"), tool("fetch")];
        changedAt = requests.length;
        await agent.prompt([
          {
            role: "system",
            content: "",
            sections: { sources: "<sources>Cite every source.</sources>" },
            timestamp: Date.now(),
          },
          question(turn),
        ]);
      } else await agent.prompt([question(turn)]);
      assert(agent.state.errorMessage === undefined, `the agent failed: ${agent.state.errorMessage}`);
    }
    const whole = JSON.stringify(getCurrentSystemMessage(agent.state.messages));
    // pi puts the tool change into the system message of the prompt: the transcript's second system message adds `fetch` and the section.
    const added = agent.state.messages.filter((m) => m.role === "system")[1];
    assert(
      added?.toolsAdded?.map((t) => t.name).join() === "fetch" && added.sections?.sources !== undefined,
      `the system messages are ${JSON.stringify(agent.state.messages.filter((m) => m.role === "system")).slice(0, 300)}`,
    );
    const later = requests.slice(changedAt);
    const compacted = later.filter((request) =>
      request.some((m) => m.role === "user" && typeof m.content === "string" && m.content.startsWith(SUMMARY_PREFIX)),
    );
    // The summarized part holds the added system message: without it the request would declare no `fetch` and no section.
    const summarizedPast = compacted.filter(
      (request) => !request.some((m) => JSON.stringify(m).includes("Question 2:")),
    );
    assert(
      summaries >= 2 && summarizedPast.length >= 3,
      `${summaries} summaries, ${summarizedPast.length} requests compacted past the change`,
    );
    for (const request of later) {
      assert(
        JSON.stringify(getCurrentSystemMessage(request)) === whole,
        `a request replays ${JSON.stringify(getCurrentSystemMessage(request)).slice(0, 300)}`,
      );
      assert(findToolPairProblems(request).length === 0, "a request with a broken tool pair");
    }
    const fetched = agent.state.messages.filter(
      (m) => m.role === "toolResult" && m.toolName === "fetch" && !m.isError,
    ).length;
    assert(fetched >= 11, `${fetched} fetch results`);
    return `${requests.length} model calls, ${summaries} summaries, ${summarizedPast.length} requests compacted past the added system message, each replaying the whole transcript's prompt and tools`;
  },
);

// For the end-to-end suite, which reads the run's figures from the line before the results.
console.log(JSON.stringify({ figures: figures ?? null }));
console.log(JSON.stringify(results));
