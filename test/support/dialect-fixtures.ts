// One row per dialect: the same four situations written in each format. Adding a dialect means
// adding a row here; test/dialects.test.ts runs the same suite over every row.
import { AIMessage, HumanMessage, SystemMessage, ToolMessage } from "@langchain/core/messages";
import { SUMMARY_PREFIX, type DialectName } from "../../src/index.js";
import { piAssistant } from "./transcripts.js";

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

export const dialectFixtures: DialectFixture[] = [
  {
    name: "openai-chat",
    user: { role: "user", content: "Find A" },
    toolRound: [
      { role: "assistant", content: null, tool_calls: [{ id: "a", type: "function", function: { name: "lookup", arguments: '{"q":"A"}' } }] },
      { role: "tool", tool_call_id: "a", content: "found A" },
    ],
    parallel: [
      { role: "assistant", content: null, tool_calls: ["b", "c"].map((id) => ({ id, type: "function", function: { name: "lookup", arguments: "{}" } })) },
      { role: "tool", tool_call_id: "b", content: "B" },
      { role: "tool", tool_call_id: "c", content: "C" },
    ],
    resultOnly: { role: "tool", tool_call_id: "z", content: "late" },
    summary: { role: "system", content: `${SUMMARY_PREFIX}earlier` },
  },
  {
    name: "anthropic",
    user: { role: "user", content: [{ type: "text", text: "Find A" }] },
    toolRound: [
      { role: "assistant", content: [{ type: "tool_use", id: "a", name: "lookup", input: { q: "A" } }] },
      { role: "user", content: [{ type: "tool_result", tool_use_id: "a", content: "found A" }] },
    ],
    parallel: [
      { role: "assistant", content: ["b", "c"].map((id) => ({ type: "tool_use", id, name: "lookup", input: {} })) },
      { role: "user", content: ["b", "c"].map((id) => ({ type: "tool_result", tool_use_id: id, content: id.toUpperCase() })) },
    ],
    resultOnly: { role: "user", content: [{ type: "tool_result", tool_use_id: "z", content: "late" }] },
    summary: { role: "user", content: `${SUMMARY_PREFIX}earlier` },
  },
  {
    name: "ai-sdk",
    user: { role: "user", content: [{ type: "text", text: "Find A" }] },
    toolRound: [
      { role: "assistant", content: [{ type: "tool-call", toolCallId: "a", toolName: "lookup", input: { q: "A" } }] },
      { role: "tool", content: [{ type: "tool-result", toolCallId: "a", toolName: "lookup", output: { type: "text", value: "found A" } }] },
    ],
    parallel: [
      { role: "assistant", content: ["b", "c"].map((id) => ({ type: "tool-call", toolCallId: id, toolName: "lookup", input: {} })) },
      { role: "tool", content: ["b", "c"].map((id) => ({ type: "tool-result", toolCallId: id, toolName: "lookup", output: { type: "text", value: id.toUpperCase() } })) },
    ],
    resultOnly: { role: "tool", content: [{ type: "tool-result", toolCallId: "z", toolName: "lookup", output: { type: "text", value: "late" } }] },
    summary: { role: "user", content: `${SUMMARY_PREFIX}earlier` },
  },
  {
    name: "openai-responses",
    user: { type: "message", role: "user", content: [{ type: "input_text", text: "Find A" }] },
    toolRound: [
      { type: "function_call", callId: "a", name: "lookup", arguments: '{"q":"A"}' },
      { type: "function_call_result", callId: "a", name: "lookup", status: "completed", output: "found A" },
    ],
    parallel: [
      { type: "function_call", call_id: "b", name: "lookup", arguments: "{}" },
      { type: "function_call", call_id: "c", name: "lookup", arguments: "{}" },
      { type: "function_call_output", call_id: "b", output: "B" },
      { type: "function_call_output", call_id: "c", output: "C" },
    ],
    resultOnly: { type: "function_call_output", call_id: "z", output: "late" },
    summary: { type: "message", role: "system", content: [{ type: "input_text", text: `${SUMMARY_PREFIX}earlier` }] },
  },
  {
    name: "google-genai",
    user: { role: "user", parts: [{ text: "Find A" }] },
    toolRound: [
      { role: "model", parts: [{ functionCall: { id: "a", name: "lookup", args: { q: "A" } } }] },
      { role: "user", parts: [{ functionResponse: { id: "a", name: "lookup", response: { output: "found A" } } }] },
    ],
    // Without ids: Gemini pairs calls and responses in order.
    parallel: [
      { role: "model", parts: [{ functionCall: { name: "lookup", args: {} } }, { functionCall: { name: "lookup", args: {} } }] },
      { role: "user", parts: [{ functionResponse: { name: "lookup", response: { output: "B" } } }, { functionResponse: { name: "lookup", response: { output: "C" } } }] },
    ],
    resultOnly: { role: "user", parts: [{ functionResponse: { id: "z", name: "lookup", response: { output: "late" } } }] },
    summary: { role: "user", parts: [{ text: `${SUMMARY_PREFIX}earlier` }] },
  },
  {
    name: "bedrock-converse",
    user: { role: "user", content: [{ text: "Find A" }] },
    toolRound: [
      { role: "assistant", content: [{ toolUse: { toolUseId: "a", name: "lookup", input: { q: "A" } } }] },
      { role: "user", content: [{ toolResult: { toolUseId: "a", content: [{ text: "found A" }], status: "success" } }] },
    ],
    parallel: [
      { role: "assistant", content: ["b", "c"].map((id) => ({ toolUse: { toolUseId: id, name: "lookup", input: {} } })) },
      { role: "user", content: ["b", "c"].map((id) => ({ toolResult: { toolUseId: id, content: [{ text: id.toUpperCase() }] } })) },
    ],
    resultOnly: { role: "user", content: [{ toolResult: { toolUseId: "z", content: [{ json: { late: true } }], status: "error" } }] },
    summary: { role: "user", content: [{ text: `${SUMMARY_PREFIX}earlier` }] },
  },
  {
    name: "langchain",
    user: new HumanMessage("Find A") as unknown as Message,
    toolRound: [
      new AIMessage({ content: "", tool_calls: [{ id: "a", name: "lookup", args: { q: "A" } }] }),
      new ToolMessage({ content: "found A", tool_call_id: "a", name: "lookup" }),
    ] as unknown as Message[],
    parallel: [
      new AIMessage({ content: "", tool_calls: ["b", "c"].map((id) => ({ id, name: "lookup", args: {} })) }),
      new ToolMessage({ content: "B", tool_call_id: "b" }),
      { type: "tool", tool_call_id: "c", content: "C" },
    ] as unknown as Message[],
    resultOnly: new ToolMessage({ content: "late", tool_call_id: "z" }) as unknown as Message,
    summary: new SystemMessage(`${SUMMARY_PREFIX}earlier`) as unknown as Message,
  },
  {
    name: "pi-agent",
    user: { role: "user", content: "Find A", timestamp: 1 },
    toolRound: [
      piAssistant([{ type: "toolCall", id: "a", name: "lookup", arguments: { q: "A" } }], "toolUse"),
      { role: "toolResult", toolCallId: "a", toolName: "lookup", content: [{ type: "text", text: "found A" }], isError: false, timestamp: 1 },
    ],
    parallel: [
      piAssistant(["b", "c"].map((id) => ({ type: "toolCall", id, name: "lookup", arguments: {} })), "toolUse"),
      { role: "toolResult", toolCallId: "b", toolName: "lookup", content: [{ type: "text", text: "B" }], isError: false, timestamp: 1 },
      { role: "toolResult", toolCallId: "c", toolName: "lookup", content: [{ type: "text", text: "C" }], isError: false, timestamp: 1 },
    ],
    resultOnly: { role: "toolResult", toolCallId: "z", toolName: "lookup", content: [{ type: "text", text: "late" }], isError: true, timestamp: 1 },
    summary: { role: "user", content: `${SUMMARY_PREFIX}earlier`, timestamp: 1 },
  },
  {
    name: "genkit",
    user: { role: "user", content: [{ text: "Find A" }] },
    toolRound: [
      { role: "model", content: [{ toolRequest: { ref: "a", name: "lookup", input: { q: "A" } } }] },
      { role: "tool", content: [{ toolResponse: { ref: "a", name: "lookup", output: "found A" } }] },
    ],
    // Without refs: Genkit pairs requests and responses in order.
    parallel: [
      { role: "model", content: [{ toolRequest: { name: "lookup", input: {} } }, { toolRequest: { name: "lookup", input: {} } }] },
      { role: "tool", content: [{ toolResponse: { name: "lookup", output: "B" } }, { toolResponse: { name: "lookup", output: "C" } }] },
    ],
    resultOnly: { role: "tool", content: [{ toolResponse: { ref: "z", name: "lookup", output: { late: true } } }] },
    summary: { role: "user", content: [{ text: `${SUMMARY_PREFIX}earlier` }] },
  },
];
