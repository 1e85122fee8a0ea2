// Random transcripts in every dialect, built from one dialect-free shape so every dialect
// gets the same kinds of structure: a system prompt, user turns, rounds of parallel tool calls
// answered by their results, assistant replies, and now and then an earlier summary.
import { AIMessage, HumanMessage, SystemMessage, ToolMessage } from "@langchain/core/messages";
import fc from "fast-check";
import { SUMMARY_PREFIX, type DialectName } from "../../src/index.js";

export type { DialectName };
export const dialects: DialectName[] = ["openai-chat", "anthropic", "ai-sdk", "openai-responses", "google-genai", "bedrock-converse", "langchain", "pi-agent", "genkit"];
/** The dialects whose messages are plain JSON (LangChain's are class instances, which a JSON round trip or a deep clone does not keep). */
export const jsonDialects: DialectName[] = dialects.filter((dialect) => dialect !== "langchain");

/** Formats whose messages array holds no system messages (the system prompt travels beside it). */
export const hasSystemMessages = (dialect: DialectName): boolean =>
  dialect !== "anthropic" && dialect !== "google-genai" && dialect !== "bedrock-converse" && dialect !== "pi-agent";

/**
 * The role the library gives a summary in the dialect by default: a system message only where the
 * format's messages hold one after the first position (Genkit's Gemini plugins refuse a second).
 */
export const summaryRoleFor = (dialect: DialectName): "system" | "user" =>
  dialect === "openai-chat" || dialect === "ai-sdk" || dialect === "openai-responses" || dialect === "langchain" ? "system" : "user";

export interface ToolCallShape {
  id: string;
  name: string;
  args: string;
  result: string;
}
export type Step =
  | { kind: "user"; text: string }
  | { kind: "assistant"; text: string }
  | { kind: "tools"; text: string; calls: ToolCallShape[] };
export interface Shape {
  system: string | undefined;
  summary: string | undefined;
  steps: Step[];
}

const text = (max = 300) =>
  fc.oneof(
    { weight: 4, arbitrary: fc.string({ maxLength: max }) },
    { weight: 1, arbitrary: fc.string({ unit: "grapheme", maxLength: max / 3 }) },
  );

function turnArbitrary(maxRounds: number) {
  const call = fc.record({ name: fc.constantFrom("lookup", "search", "read_file"), args: text(60), result: text(600) });
  const round = fc.record({ text: text(80), calls: fc.array(call, { minLength: 1, maxLength: 4 }) });
  return fc.record({
    user: text(200),
    rounds: fc.array(round, { maxLength: maxRounds }),
    reply: fc.option(text(300), { nil: undefined }),
  });
}

/** A dialect-free transcript shape; tool ids are unique within it. */
export interface ShapeOptions {
  minTurns?: number;
  maxTurns?: number;
  /** Tool rounds per turn, at most; a coding agent runs many after one request. */
  maxRounds?: number;
  /**
   * Transcripts every provider takes as they are: no blank text (Anthropic and Bedrock refuse it),
   * every turn answered (Bedrock refuses two user turns in a row), no summary of an earlier run.
   */
  accepted?: boolean;
}

const filled = (text: string) => (text.trim() === "" ? "(blank)" : text);

export const shapeArbitrary = (options: ShapeOptions = {}) =>
  fc
    .record({
      system: fc.option(text(200), { nil: undefined }),
      summary: fc.option(text(100), { nil: undefined, freq: 4 }),
      turns: fc.array(turnArbitrary(options.maxRounds ?? 4), { minLength: options.minTurns ?? 0, maxLength: options.maxTurns ?? 8 }),
    })
    .map(({ system, summary, turns }): Shape => {
      let next = 0;
      const steps: Step[] = [];
      const fill = options.accepted ? filled : (text: string) => text;
      for (const turn of turns) {
        steps.push({ kind: "user", text: fill(turn.user) });
        for (const round of turn.rounds) {
          // A call turn's blank text is left out (an empty text is not rendered at all).
          const text = options.accepted && round.text.trim() === "" ? "" : round.text;
          steps.push({ kind: "tools", text, calls: round.calls.map((c) => ({ ...c, result: fill(c.result), id: `call_${next++}` })) });
        }
        const reply = turn.reply ?? (options.accepted ? "Done." : undefined);
        if (reply !== undefined) steps.push({ kind: "assistant", text: fill(reply) });
      }
      return { system: system === undefined ? undefined : fill(system), summary: options.accepted ? undefined : summary, steps };
    });

type Message = Record<string, unknown>;

/** A plain text message in one dialect. */
function textMessage(dialect: DialectName, role: "system" | "user" | "assistant", text: string): Message {
  if (dialect === "langchain") return (role === "system" ? new SystemMessage(text) : role === "user" ? new HumanMessage(text) : new AIMessage(text)) as unknown as Message;
  if (dialect === "google-genai") return { role: role === "assistant" ? "model" : "user", parts: [{ text }] };
  if (dialect === "bedrock-converse") return { role, content: [{ text }] };
  if (dialect === "genkit") return { role: role === "assistant" ? "model" : role, content: [{ text }] };
  if (dialect === "pi-agent") return role === "assistant" ? piAssistant([{ type: "text", text }], "stop") : { role, content: text, timestamp: 1 };
  return { role, content: text };
}

/** A pi assistant message, with the fields pi's providers fill in. */
export function piAssistant(content: Message[], stopReason: "stop" | "toolUse"): Message {
  const usage = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } };
  return { role: "assistant", content, api: "faux", provider: "faux", model: "faux-1", usage, stopReason, timestamp: 1 };
}

/**
 * Renders a shape in one dialect. Anthropic, Gemini and Bedrock have no system messages: the
 * system prompt is dropped and a summary is a user message.
 */
export function render(shape: Shape, dialect: DialectName): Message[] {
  const out: Message[] = [];
  if (shape.system !== undefined && hasSystemMessages(dialect)) out.push(dialect === "genkit" ? textMessage(dialect, "system", shape.system) : { role: "system", content: shape.system });
  if (shape.summary !== undefined) out.push(textMessage(dialect, summaryRoleFor(dialect), SUMMARY_PREFIX + shape.summary));
  for (const step of shape.steps) {
    if (dialect === "google-genai" || dialect === "bedrock-converse" || dialect === "langchain" || dialect === "pi-agent" || dialect === "genkit") {
      out.push(...(step.kind === "tools" ? renderTools(step, dialect) : [textMessage(dialect, step.kind, step.text)]));
    } else if (step.kind === "user") {
      out.push(
        dialect === "openai-responses"
          ? { type: "message", role: "user", content: [{ type: "input_text", text: step.text }] }
          : { role: "user", content: step.text },
      );
    } else if (step.kind === "assistant") {
      out.push(
        dialect === "openai-responses"
          ? { type: "message", role: "assistant", status: "completed", content: [{ type: "output_text", text: step.text }] }
          : { role: "assistant", content: step.text },
      );
    } else {
      out.push(...renderTools(step, dialect));
    }
  }
  return out;
}

function renderTools(step: Extract<Step, { kind: "tools" }>, dialect: DialectName): Message[] {
  switch (dialect) {
    case "openai-chat":
      return [
        {
          role: "assistant",
          content: step.text || null,
          tool_calls: step.calls.map((c) => ({ id: c.id, type: "function", function: { name: c.name, arguments: c.args } })),
        },
        ...step.calls.map((c) => ({ role: "tool", tool_call_id: c.id, content: c.result })),
      ];
    case "anthropic":
      return [
        {
          role: "assistant",
          content: [
            ...(step.text ? [{ type: "text", text: step.text }] : []),
            ...step.calls.map((c) => ({ type: "tool_use", id: c.id, name: c.name, input: { q: c.args } })),
          ],
        },
        { role: "user", content: step.calls.map((c) => ({ type: "tool_result", tool_use_id: c.id, content: c.result })) },
      ];
    case "ai-sdk":
      return [
        {
          role: "assistant",
          content: [
            ...(step.text ? [{ type: "text", text: step.text }] : []),
            ...step.calls.map((c) => ({ type: "tool-call", toolCallId: c.id, toolName: c.name, input: { q: c.args } })),
          ],
        },
        {
          role: "tool",
          content: step.calls.map((c) => ({
            type: "tool-result",
            toolCallId: c.id,
            toolName: c.name,
            output: { type: "text", value: c.result },
          })),
        },
      ];
    case "langchain":
      return [
        new AIMessage({ content: step.text, tool_calls: step.calls.map((c) => ({ id: c.id, name: c.name, args: { q: c.args } })) }),
        ...step.calls.map((c) => new ToolMessage({ content: c.result, tool_call_id: c.id, name: c.name })),
      ] as unknown as Message[];
    case "google-genai":
      // Gemini allows calls and responses without ids, paired in order: every third call has none.
      return [
        {
          role: "model",
          parts: [
            ...(step.text ? [{ text: step.text }] : []),
            ...step.calls.map((c) => ({ functionCall: { ...geminiId(c.id), name: c.name, args: { q: c.args } } })),
          ],
        },
        { role: "user", parts: step.calls.map((c) => ({ functionResponse: { ...geminiId(c.id), name: c.name, response: { output: c.result } } })) },
      ];
    case "bedrock-converse":
      return [
        {
          role: "assistant",
          content: [
            ...(step.text ? [{ text: step.text }] : []),
            ...step.calls.map((c) => ({ toolUse: { toolUseId: c.id, name: c.name, input: { q: c.args } } })),
          ],
        },
        { role: "user", content: step.calls.map((c) => ({ toolResult: { toolUseId: c.id, content: [{ text: c.result }], status: "success" } })) },
      ];
    case "pi-agent":
      return [
        piAssistant([...(step.text ? [{ type: "text", text: step.text }] : []), ...step.calls.map((c) => ({ type: "toolCall", id: c.id, name: c.name, arguments: { q: c.args } }))], "toolUse"),
        ...step.calls.map((c) => ({ role: "toolResult", toolCallId: c.id, toolName: c.name, content: [{ type: "text", text: c.result }], isError: false, timestamp: 1 })),
      ];
    case "genkit":
      // Genkit pairs by `ref` when both sides have one, else in order: every third call has none.
      return [
        { role: "model", content: [...(step.text ? [{ text: step.text }] : []), ...step.calls.map((c) => ({ toolRequest: { ...genkitRef(c.id), name: c.name, input: { q: c.args } } }))] },
        { role: "tool", content: step.calls.map((c) => ({ toolResponse: { ...genkitRef(c.id), name: c.name, output: c.result } })) },
      ];
    case "openai-responses":
      // @openai/agents items (callId, function_call_result) and raw API items (call_id,
      // function_call_output) alternate, so both spellings are exercised.
      return [
        { type: "reasoning", id: `rs_${step.calls[0]!.id}`, content: [], summary: [] },
        ...step.calls.map((c, i) =>
          i % 2 === 0
            ? { type: "function_call", callId: c.id, name: c.name, arguments: c.args, status: "completed" }
            : { type: "function_call", call_id: c.id, name: c.name, arguments: c.args },
        ),
        ...step.calls.map((c, i) =>
          i % 2 === 0
            ? { type: "function_call_result", callId: c.id, name: c.name, status: "completed", output: c.result }
            : { type: "function_call_output", call_id: c.id, output: c.result },
        ),
      ];
  }
}

function geminiId(id: string): { id?: string } {
  return Number(id.slice("call_".length)) % 3 === 2 ? {} : { id };
}

function genkitRef(id: string): { ref?: string } {
  return Number(id.slice("call_".length)) % 3 === 2 ? {} : { ref: id };
}

/** A transcript of one dialect, with its shape. */
export const transcriptArbitrary = (dialect: DialectName, options?: ShapeOptions) =>
  shapeArbitrary(options).map((shape) => render(shape, dialect));

/** Any dialect. */
export const anyTranscriptArbitrary = (options?: ShapeOptions) =>
  fc.tuple(shapeArbitrary(options), fc.constantFrom(...dialects)).map(([shape, dialect]) => ({
    dialect,
    messages: render(shape, dialect),
  }));

/** Freezes a value and everything in it, so any mutation by the code under test throws. */
export function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const key of Object.keys(value)) deepFreeze((value as Record<string, unknown>)[key]);
  }
  return value;
}
