// Random transcripts in every dialect, built from one dialect-free shape so every dialect
// gets the same kinds of structure: a system prompt, user turns, rounds of parallel tool calls
// answered by their results, assistant replies, and now and then an earlier summary.
import fc from "fast-check";
import { SUMMARY_PREFIX } from "../../src/expert.js";
import type { DialectName } from "../../src/index.js";
import { builders } from "./builders.js";

export type { DialectName };
export const dialects: DialectName[] = [
  "openai-chat",
  "anthropic",
  "ai-sdk",
  "openai-responses",
  "google-genai",
  "bedrock-converse",
  "langchain",
  "pi-agent",
  "genkit",
];
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
  dialect === "openai-chat" || dialect === "ai-sdk" || dialect === "openai-responses" || dialect === "langchain"
    ? "system"
    : "user";

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
      turns: fc.array(turnArbitrary(options.maxRounds ?? 4), {
        minLength: options.minTurns ?? 0,
        maxLength: options.maxTurns ?? 8,
      }),
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
          steps.push({
            kind: "tools",
            text,
            calls: round.calls.map((c) => ({ ...c, result: fill(c.result), id: `call_${next++}` })),
          });
        }
        const reply = turn.reply ?? (options.accepted ? "Done." : undefined);
        if (reply !== undefined) steps.push({ kind: "assistant", text: fill(reply) });
      }
      return {
        system: system === undefined ? undefined : fill(system),
        summary: options.accepted ? undefined : summary,
        steps,
      };
    });

type Message = Record<string, unknown>;

/** A plain text message in one dialect: a system message only where the format has one. */
function textMessage(dialect: DialectName, role: "system" | "user" | "assistant", text: string): Message {
  const build = builders[dialect];
  if (role === "system" && "system" in build)
    return (
      dialect === "openai-responses" ? builders[dialect].system(text, { easy: true }) : build.system(text)
    ) as Message;
  return (role === "assistant" ? build.assistant(text) : build.user(text)) as Message;
}

/**
 * Renders a shape in one dialect. Anthropic, Gemini and Bedrock have no system messages: the
 * system prompt is dropped and a summary is a user message.
 */
export function render(shape: Shape, dialect: DialectName): Message[] {
  const out: Message[] = [];
  // A plain `{ role, content }` system prompt in every format that has one (LangChain and the Responses API read it too).
  if (shape.system !== undefined && hasSystemMessages(dialect))
    out.push(
      dialect === "genkit"
        ? textMessage(dialect, "system", shape.system)
        : builders["openai-chat"].system(shape.system),
    );
  if (shape.summary !== undefined)
    out.push(textMessage(dialect, summaryRoleFor(dialect), SUMMARY_PREFIX + shape.summary));
  for (const step of shape.steps)
    out.push(...(step.kind === "tools" ? renderTools(step, dialect) : [textMessage(dialect, step.kind, step.text)]));
  return out;
}

function renderTools(step: Extract<Step, { kind: "tools" }>, dialect: DialectName): Message[] {
  if (dialect === "openai-responses") {
    // @openai/agents items (callId, function_call_result) and raw API items (call_id,
    // function_call_output) alternate, so both spellings are exercised.
    const responses = builders[dialect];
    const items = (i: number) => ({ items: i % 2 === 0 ? ("agents" as const) : ("api" as const) });
    return [
      { type: "reasoning", id: `rs_${step.calls[0]!.id}`, content: [], summary: [] },
      ...step.calls.map((c, i) => responses.toolCall(c.id, c.name, c.args, items(i))),
      ...step.calls.map((c, i) => responses.toolResult(c.id, c.result, { ...items(i), name: c.name })),
    ];
  }
  // Gemini allows calls and responses without ids, paired in order, and Genkit pairs by `ref` when
  // both sides have one, else in order: in those two, every third call has none.
  // (`undefined` only reaches those two builders, which take it.)
  const id = (c: ToolCallShape) =>
    (dialect === "google-genai" ? geminiId(c.id).id : dialect === "genkit" ? genkitRef(c.id).ref : c.id) as string;
  // OpenAI chat carries the arguments as text; the other formats as an object.
  const input = (c: ToolCallShape) => (dialect === "openai-chat" ? c.args : { q: c.args });
  const build = builders[dialect];
  return [
    ...build.toolCalls(
      step.calls.map((c) => ({ id: id(c), name: c.name, input: input(c) })),
      { text: step.text },
    ),
    ...build.toolResults(step.calls.map((c) => ({ id: id(c), name: c.name, output: c.result }))),
  ] as unknown as Message[];
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
