// pi and Genkit end to end on the runtime that runs this script (Node 22 and 24 in
// `npm run test:runtimes`; Node 20 runs the full suites in `npm test`): each framework's real
// agent loop with a tool and its own test model, compacting through this package's adapter.
// The frameworks come from the project's own devDependencies. Prints the conformance result shape.
import { Agent } from "@mariozechner/pi-agent-core";
import { fauxAssistantMessage, fauxToolCall, registerFauxProvider } from "@mariozechner/pi-ai";
import { genkit, z } from "genkit";
import { Type } from "typebox";
import { toModelMiddleware } from "../dist/genkit.js";
import { toTransformContext } from "../dist/pi.js";
import { assert, check, results } from "./checks.mjs";
import { SUMMARY_PREFIX, findToolPairProblems } from "../dist/expert.js";

const question = (turn) => `Question ${turn}: ${"context ".repeat(30)}`;

await check("pi Agent with toTransformContext, 10 turns", async () => {
  const faux = registerFauxProvider();
  const contexts = [];
  const respond = (context) => {
    contexts.push(structuredClone(context.messages));
    return context.messages.at(-1)?.role === "toolResult"
      ? fauxAssistantMessage("Answer.")
      : fauxAssistantMessage([fauxToolCall("lookup", { q: "q" })], { stopReason: "toolUse" });
  };
  faux.setResponses(Array.from({ length: 100 }, () => respond));
  let summaries = 0;
  const lookup = {
    name: "lookup",
    label: "Lookup",
    description: "Look up",
    parameters: Type.Object({ q: Type.String() }),
    execute: async () => ({ content: [{ type: "text", text: "fact ".repeat(120) }], details: {} }),
  };
  const agent = new Agent({
    initialState: { systemPrompt: "Look every fact up.", model: faux.getModel(), tools: [lookup] },
    transformContext: toTransformContext({ maxTokens: 1_500, summarize: () => `summary ${++summaries}` }),
  });
  for (let turn = 0; turn < 10; turn++) await agent.prompt(question(turn));
  faux.unregister();
  assert(agent.state.errorMessage === undefined, agent.state.errorMessage);
  assert(summaries >= 1 && summaries < 10, `${summaries} summaries`);
  assert(
    contexts.some((messages) =>
      messages.some((m) => m.role === "user" && typeof m.content === "string" && m.content.startsWith(SUMMARY_PREFIX)),
    ),
    "no request held the summary",
  );
  assert(
    contexts.every((messages) => findToolPairProblems(messages).length === 0),
    "a request with a broken tool pair",
  );
  return `${contexts.length} model calls, ${summaries} summaries, ${process.version}`;
});

await check("Genkit generate with toModelMiddleware, 10 turns", async () => {
  const ai = genkit({});
  const requests = [];
  const model = ai.defineModel(
    { name: "scripted", supports: { tools: true, multiturn: true, systemRole: true } },
    async (request) => {
      requests.push(structuredClone(request.messages));
      if (request.messages.at(-1).role === "tool")
        return { message: { role: "model", content: [{ text: "Answer." }] }, finishReason: "stop" };
      return {
        message: {
          role: "model",
          content: [{ toolRequest: { name: "lookup", ref: `r${requests.length}`, input: { q: "q" } } }],
        },
        finishReason: "stop",
      };
    },
  );
  const lookup = ai.defineTool(
    { name: "lookup", description: "Look up", inputSchema: z.object({ q: z.string() }), outputSchema: z.string() },
    async () => "fact ".repeat(100),
  );
  let summaries = 0;
  const use = [
    toModelMiddleware({ maxTokens: 1_200, conversationId: "chat", summarize: () => `summary ${++summaries}` }),
  ];
  let history = [];
  for (let turn = 0; turn < 10; turn++) {
    const response = await ai.generate({
      model,
      system: "Look every fact up.",
      messages: history,
      prompt: question(turn),
      tools: [lookup],
      use,
    });
    history = response.messages.filter((message) => message.role !== "system");
  }
  assert(summaries >= 1 && summaries < 10, `${summaries} summaries`);
  assert(
    requests.some((messages) => messages.some((m) => m.content.some((part) => part.text?.startsWith(SUMMARY_PREFIX)))),
    "no request held the summary",
  );
  assert(
    requests.every((messages) => findToolPairProblems(messages).length === 0),
    "a request with a broken tool pair",
  );
  return `${requests.length} model calls, ${summaries} summaries, ${process.version}`;
});

console.log(JSON.stringify(results));
