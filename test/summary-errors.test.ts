// The model-free summary's "Errors:" section holds the tool results that failed: those the format
// flags as failed, and those whose text opens as a failure's does. A successful read of a file that
// mentions an error (Go's `func run() error`, a test named `test_invalid_input`) is not one.
import { describe, expect, it } from "vitest";
import { extractiveSummary, type DialectName } from "../src/index.js";
import { builders } from "./support/builders.js";

const GO_FILE =
  'package main\n\nimport "errors"\n\n// run fails when the config is invalid.\nfunc run() error {\n\treturn errors.New("not found")\n}\n';
const FAILURE = "could not open config.yaml";

/** The "Errors:" section of a summary, or "" when it has none. */
const errorsOf = (summary: string): string => /(?:^|\n\n)Errors:[^\n]*\n((?:- [^\n]*\n?)*)/.exec(summary)?.[1] ?? "";
const summarize = (messages: object[]) => extractiveSummary(messages, { maxTokens: 2_000 });

/** A failed result as each format flags it, in the words of the SDK types that declare the flag. */
const failed: [DialectName, (id: string, output: string) => object][] = [
  // @anthropic-ai/sdk ToolResultBlockParam: `is_error?: boolean`.
  [
    "anthropic",
    (id, output) => ({
      role: "user",
      content: [{ type: "tool_result", tool_use_id: id, content: output, is_error: true }],
    }),
  ],
  // @aws-sdk/client-bedrock-runtime ToolResultBlock: `status?: ToolResultStatus` ("success" | "error").
  ["bedrock-converse", (id, output) => builders["bedrock-converse"].toolResult(id, output, { status: "error" })],
  // pi-ai ToolResultMessage: `isError: boolean`.
  ["pi-agent", (id, output) => builders["pi-agent"].toolResult(id, output, { isError: true })],
  // @langchain/core ToolMessage: `status?: "success" | "error"`.
  ["langchain", (id, output) => Object.assign(builders.langchain.toolResult(id, output), { status: "error" })],
  // @google/genai FunctionResponse.response: "Use "output" key to specify function output and "error" key to specify error details".
  [
    "google-genai",
    (id, output) => ({
      role: "user",
      parts: [{ functionResponse: { id, name: "read_file", response: { error: output } } }],
    }),
  ],
  // @ai-sdk/provider-utils ToolResultOutput: `{ type: 'error-text', value: string }`.
  [
    "ai-sdk",
    (id, output) => ({
      role: "tool",
      content: [
        { type: "tool-result", toolCallId: id, toolName: "read_file", output: { type: "error-text", value: output } },
      ],
    }),
  ],
];

describe("the model-free summary's errors", () => {
  it.each(failed)(
    "%s: a result the format flags as failed is filed under errors, a read of a Go file holding `func run() error` is not",
    (dialect, failedResult) => {
      const build = builders[dialect];
      const messages = [
        build.user("read the two files"),
        ...build.toolCalls([
          { id: "t1", name: "read_file", input: { path: "main.go" } },
          { id: "t2", name: "read_file", input: { path: "config.yaml" } },
        ]),
        ...build.toolResults([{ id: "t1", name: "read_file", output: GO_FILE }]),
        failedResult("t2", FAILURE),
      ];
      const errors = errorsOf(summarize(messages as object[]));
      expect(errors).toContain(FAILURE);
      expect(errors).not.toContain("package main");
    },
  );

  const opening: [string, string, boolean][] = [
    ["a Go file that declares an error return", GO_FILE, false],
    [
      "a test run that lists a test of invalid input, and passes",
      "collected 3 items\ntests/test_api.py::test_invalid_input PASSED\n3 passed in 0.2s",
      false,
    ],
    [
      "a log that mentions an exception handler",
      "starting server\nregistered exception handler for /api\nlistening on :8080",
      false,
    ],
    ["Error: …", "Error: ENOENT: no such file or directory, open 'config.yaml'", true],
    ["a Python traceback", 'Traceback (most recent call last):\n  File "app.py", line 3', true],
    ["a typed error", "TypeError: Cannot read properties of undefined (reading 'id')", true],
    ["a Rust compiler error", "error[E0308]: mismatched types", true],
    ["git's fatal", "fatal: not a git repository (or any of the parent directories): .git", true],
    ["npm's error", "npm ERR! code ENOENT", true],
    ["a refusal", "Permission denied (publickey).", true],
    ["a leading mark", "❌ build failed: 2 errors", true],
    ["a bracketed level", "[ERROR] Failed to execute goal", true],
    ["a command that failed", "Command failed with exit code 1", true],
    ["a test summary that counts none failed", "0 failed, 12 passed in 3.1s", false],
  ];

  it.each(opening)("openai-chat, which has no flag: %s is filed by how it opens", (_, output, isError) => {
    const { user, toolCall, toolResult } = builders["openai-chat"];
    const errors = errorsOf(summarize([user("go"), toolCall("t1", "run", {}), toolResult("t1", output)]));
    expect(errors !== "").toBe(isError);
  });
});
