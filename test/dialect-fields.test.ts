// Only src/dialects/ reads a message's fields (SPEC §39: "only src/dialects/ reads message fields,
// and a test says so"). Each format's field names are those of its SDK's message types, the
// dialects' own vocabulary; anywhere else, a message is asked through a dialect.
import { readFileSync, readdirSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";

const src = new URL("../src/", import.meta.url).pathname;

/**
 * Field names only a message of some format has (OpenAI chat and Responses, Anthropic, Gemini,
 * Bedrock, the AI SDK, LangChain, Mastra, pi). Names the library's own objects share (a part's
 * `isError`, the archive's `toolName`) are not in the list: those objects are what a dialect returns.
 */
const formatFields = [
  "tool_calls",
  "tool_call_id",
  "tool_use_id",
  "toolCallId",
  "functionCall",
  "functionResponse",
  "function_call",
  "call_id",
  "encrypted_content",
  "providerOptions",
  "lc_kwargs",
  "toolUse",
  "toolResult",
  "reasoning_content",
];
/** Fields every format shares by name, read as a raw message's when cast to a record or indexed by name. */
const sharedFields = ["role", "content", "parts", "output"];

const fieldRead = new RegExp(
  [
    String.raw`\.(?:${formatFields.join("|")})\b`,
    String.raw`\[\s*"(?:${[...formatFields, ...sharedFields].join("|")})"\s*\]`,
    // `(message as { role?: unknown }).role`: a raw message cast to a record of its fields.
    String.raw`as\s*\{\s*(?:${sharedFields.join("|")})\??\s*:[^}]*\}\s*\)\s*\.`,
  ].join("|"),
);

/** The code of a file without its comments and the text of its string and template literals. */
function codeOf(text: string): string {
  return text
    .replace(/\/\*[\s\S]*?\*\//g, "")
    .replace(/(^|[^:\\])\/\/.*$/gm, "$1")
    .replace(/`(?:\\.|[^`\\])*`/g, "``")
    .replace(/'(?:\\.|[^'\\\n])*'/g, "''");
}

function filesOf(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? filesOf(join(folder, entry.name))
      : entry.name.endsWith(".ts")
        ? [join(folder, entry.name)]
        : [],
  );
}

/** Each line outside src/dialects/ that reads a message's field, as `file:line: code`. */
function fieldReadsOutsideDialects(files: readonly string[]): string[] {
  const found: string[] = [];
  for (const file of files) {
    const name = relative(src, file);
    if (name.startsWith("dialects/")) continue;
    codeOf(readFileSync(file, "utf8"))
      .split("\n")
      .forEach((line, index) => {
        // Double-quoted strings are kept: `["role"]` is a read, and the pattern needs its quotes.
        if (fieldRead.test(line)) found.push(`${name}:${index + 1}: ${line.trim()}`);
      });
  }
  return found;
}

describe("message fields", () => {
  it("only src/dialects/ reads a message's fields", () => {
    expect(fieldReadsOutsideDialects(filesOf(src))).toEqual([]);
  });

  it("the check finds the reads it is written for (it can fail)", () => {
    for (const read of [
      "const role = (message as { role?: unknown }).role;",
      'if (message["providerOptions"] !== undefined) return;',
      "const id = message.tool_call_id;",
      'const list = Array.isArray(message["content"]);',
    ]) {
      expect(fieldRead.test(codeOf(read)), read).toBe(true);
    }
    for (const other of [
      "// reads `message.tool_call_id` in a comment",
      // biome-ignore lint/suspicious/noTemplateCurlyInString: source text the check reads, not a template
      "const text = `messages[${index}].role`;",
      "const role = view.role;",
    ]) {
      expect(fieldRead.test(codeOf(other)), other).toBe(false);
    }
  });
});
