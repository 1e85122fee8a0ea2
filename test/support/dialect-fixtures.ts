// One row per dialect: the same four situations written in each format. Adding a dialect means
// adding a row here; test/dialects.test.ts runs the same suite over every row.
import { SUMMARY_PREFIX } from "../../src/expert.js";
import type { DialectName } from "../../src/index.js";
import { builders } from "./builders.js";

type Message = Record<string, unknown>;

export interface DialectFixture {
  name: DialectName;
  /** A user request. */
  user: Message;
  /** One call (`a`, tool `lookup`) and its result (`found A`). */
  toolRound: Message[];
  /** Two parallel calls (`b`, `c`) answered by their results. */
  parallel: Message[];
  /** A message that holds only a tool result: never a user turn. */
  resultOnly: Message;
  /** A summary this library made. */
  summary: Message;
}

const {
  "openai-chat": chat,
  anthropic,
  "ai-sdk": aiSdk,
  "openai-responses": responses,
  "google-genai": gemini,
  "bedrock-converse": bedrock,
  langchain,
  "pi-agent": pi,
  genkit,
} = builders;
const summaryText = `${SUMMARY_PREFIX}earlier`;
const parallelIds = ["b", "c"];

export const dialectFixtures: DialectFixture[] = [
  {
    name: "openai-chat",
    user: chat.user("Find A"),
    toolRound: [chat.toolCall("a", "lookup", { q: "A" }), chat.toolResult("a", "found A")],
    parallel: [
      ...chat.toolCalls(parallelIds.map((id) => ({ id, name: "lookup" }))),
      chat.toolResult("b", "B"),
      chat.toolResult("c", "C"),
    ],
    resultOnly: chat.toolResult("z", "late"),
    summary: chat.system(summaryText),
  },
  {
    name: "anthropic",
    user: anthropic.user([{ type: "text", text: "Find A" }]),
    toolRound: [anthropic.toolCall("a", "lookup", { q: "A" }), anthropic.toolResult("a", "found A")],
    parallel: [
      ...anthropic.toolCalls(parallelIds.map((id) => ({ id, name: "lookup" }))),
      ...anthropic.toolResults(parallelIds.map((id) => ({ id, output: id.toUpperCase() }))),
    ],
    resultOnly: anthropic.toolResult("z", "late"),
    summary: anthropic.user(summaryText),
  },
  {
    name: "ai-sdk",
    user: aiSdk.user([{ type: "text", text: "Find A" }]),
    toolRound: [aiSdk.toolCall("a", "lookup", { q: "A" }), aiSdk.toolResult("a", "found A", { name: "lookup" })],
    parallel: [
      ...aiSdk.toolCalls(parallelIds.map((id) => ({ id, name: "lookup" }))),
      ...aiSdk.toolResults(parallelIds.map((id) => ({ id, name: "lookup", output: id.toUpperCase() }))),
    ],
    resultOnly: aiSdk.toolResult("z", "late", { name: "lookup" }),
    summary: aiSdk.user(summaryText),
  },
  {
    name: "openai-responses",
    user: responses.user("Find A"),
    toolRound: [
      // An @openai/agents call item without its optional `status`.
      { type: "function_call", callId: "a", name: "lookup", arguments: '{"q":"A"}' },
      responses.toolResult("a", "found A", { items: "agents", name: "lookup" }),
    ],
    parallel: [
      ...responses.toolCalls(parallelIds.map((id) => ({ id, name: "lookup" }))),
      responses.toolResult("b", "B"),
      responses.toolResult("c", "C"),
    ],
    resultOnly: responses.toolResult("z", "late"),
    summary: responses.system(summaryText),
  },
  {
    name: "google-genai",
    user: gemini.user("Find A"),
    toolRound: [gemini.toolCall("a", "lookup", { q: "A" }), gemini.toolResult("a", "found A", { name: "lookup" })],
    // Without ids: Gemini pairs calls and responses in order.
    parallel: [
      ...gemini.toolCalls([
        { id: undefined, name: "lookup" },
        { id: undefined, name: "lookup" },
      ]),
      ...gemini.toolResults([
        { id: undefined, name: "lookup", output: "B" },
        { id: undefined, name: "lookup", output: "C" },
      ]),
    ],
    resultOnly: gemini.toolResult("z", "late", { name: "lookup" }),
    summary: gemini.user(summaryText),
  },
  {
    name: "bedrock-converse",
    user: bedrock.user("Find A"),
    toolRound: [bedrock.toolCall("a", "lookup", { q: "A" }), bedrock.toolResult("a", "found A")],
    parallel: [
      ...bedrock.toolCalls(parallelIds.map((id) => ({ id, name: "lookup" }))),
      ...bedrock.toolResults(
        parallelIds.map((id) => ({ id, output: id.toUpperCase() })),
        { status: null },
      ),
    ],
    // A JSON result that failed: the builders write text results.
    resultOnly: {
      role: "user",
      content: [{ toolResult: { toolUseId: "z", content: [{ json: { late: true } }], status: "error" } }],
    },
    summary: bedrock.user(summaryText),
  },
  {
    name: "langchain",
    user: langchain.user("Find A") as unknown as Message,
    toolRound: [
      langchain.toolCall("a", "lookup", { q: "A" }),
      langchain.toolResult("a", "found A", { name: "lookup" }),
    ] as unknown as Message[],
    parallel: [
      ...langchain.toolCalls(parallelIds.map((id) => ({ id, name: "lookup" }))),
      langchain.toolResult("b", "B"),
      // A result as a plain object, which LangChain also takes.
      { type: "tool", tool_call_id: "c", content: "C" },
    ] as unknown as Message[],
    resultOnly: langchain.toolResult("z", "late") as unknown as Message,
    summary: langchain.system(summaryText) as unknown as Message,
  },
  {
    name: "pi-agent",
    user: pi.user("Find A"),
    toolRound: [pi.toolCall("a", "lookup", { q: "A" }), pi.toolResult("a", "found A", { name: "lookup" })],
    parallel: [
      ...pi.toolCalls(parallelIds.map((id) => ({ id, name: "lookup" }))),
      ...pi.toolResults(parallelIds.map((id) => ({ id, name: "lookup", output: id.toUpperCase() }))),
    ],
    resultOnly: pi.toolResult("z", "late", { name: "lookup", isError: true }),
    summary: pi.user(summaryText),
  },
  {
    name: "genkit",
    user: genkit.user("Find A"),
    toolRound: [genkit.toolCall("a", "lookup", { q: "A" }), genkit.toolResult("a", "found A", { name: "lookup" })],
    // Without refs: Genkit pairs requests and responses in order.
    parallel: [
      ...genkit.toolCalls([
        { id: undefined, name: "lookup" },
        { id: undefined, name: "lookup" },
      ]),
      ...genkit.toolResults([
        { id: undefined, name: "lookup", output: "B" },
        { id: undefined, name: "lookup", output: "C" },
      ]),
    ],
    // A JSON output: the builders write text outputs.
    resultOnly: { role: "tool", content: [{ toolResponse: { ref: "z", name: "lookup", output: { late: true } } }] },
    summary: genkit.user(summaryText),
  },
];
