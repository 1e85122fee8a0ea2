// What the Gemini API (`models.generateContent`, body `{ systemInstruction?, contents }`) accepts of `contents`.
// Types are from node_modules/@google/genai/dist/genai.d.ts; error texts are the API's own, as reported.
import { type Obj, type ProviderRequest, type Violation, arr, isObj, show, str } from "./common.js";

// SDK Part: a part carries one of these (the API's proto `data` oneof).
const DATA_FIELDS = [
  "text",
  "inlineData",
  "fileData",
  "functionCall",
  "functionResponse",
  "executableCode",
  "codeExecutionResult",
  "toolCall",
  "toolResponse",
];

const partsOf = (content: Obj) => arr(content, "parts").map((p) => (isObj(p) ? p : {}));
const calls = (content: Obj) => partsOf(content).filter((p) => isObj(p.functionCall));
const responses = (content: Obj) => partsOf(content).filter((p) => isObj(p.functionResponse));
const roleOf = (content: Obj) => str(content.role) ?? "user";

export function googleGenaiViolations(request: ProviderRequest): Violation[] {
  const out: Violation[] = [];
  const contents = request.messages.map((c) => (isObj(c) ? c : {}));

  contents.forEach((content, index) => {
    // SDK Content.role: "Optional. The producer of the content. Must be either 'user' or 'model'. If not set, the service will
    // default to 'user'."
    if (content.role !== undefined && content.role !== "user" && content.role !== "model")
      out.push({
        rule: "google-genai/role",
        index,
        detail: `contents[${index}].role: ${show(content.role)} must be either 'user' or 'model'`,
      });
    const parts = partsOf(content);
    // API error: "* GenerateContentRequest.contents[1].parts: contents.parts must not be empty." (https://github.com/vercel/ai/issues/3775,
    // https://github.com/langchain-ai/langchain-google/issues/691)
    if (parts.length === 0)
      out.push({
        rule: "google-genai/parts-non-empty",
        index,
        detail: `GenerateContentRequest.contents[${index}].parts: contents.parts must not be empty.`,
      });
    parts.forEach((part, p) => {
      // API error: "* contents[2].parts[1].data: required oneof field 'data' must have one initialized field"
      // (https://github.com/54xzh/FLIT/issues/69)
      // A thought part (`thought: true`, or a bare `thoughtSignature`) is left alone: what the API does with one without text is
      // not documented.
      if (
        !DATA_FIELDS.some((f) => part[f] !== undefined) &&
        part.thought !== true &&
        part.thoughtSignature === undefined
      )
        out.push({
          rule: "google-genai/part-data",
          index,
          detail: `contents[${index}].parts[${p}].data: required oneof field 'data' must have one initialized field`,
        });
    });

    if (responses(content).length > 0) {
      const previous = contents[index - 1];
      // API error: "Please ensure that function response turn comes immediately after a function call turn."
      // (https://github.com/GoogleCloudPlatform/generative-ai/pull/368, https://github.com/langchain-ai/langchain/issues/27799)
      if (!previous || roleOf(previous) !== "model" || calls(previous).length === 0)
        out.push({
          rule: "google-genai/response-after-call",
          index,
          detail: `contents[${index}]: Please ensure that function response turn comes immediately after a function call turn.`,
        });
      // API error: "Please ensure that the number of function response parts is equal to the number of function call parts of the
      // function call turn." (https://github.com/microsoft/vscode/issues/299295, https://github.com/google-gemini/gemini-cli/pull/2120)
      else if (calls(previous).length !== responses(content).length)
        out.push({
          rule: "google-genai/response-count",
          index,
          detail: `contents[${index}]: Please ensure that the number of function response parts (${responses(content).length}) is equal to the number of function call parts of the function call turn (${calls(previous).length}).`,
        });
    }
    if (roleOf(content) === "model" && calls(content).length > 0) {
      const previous = contents[index - 1];
      // API error: "Please ensure that function call turn comes immediately after a user turn or after a function response turn."
      // (https://github.com/google-gemini/gemini-cli/issues/26486; also "when the sent conversation history starts with a function
      // call", https://github.com/google-gemini/gemini-cli/issues/11814)
      if (!previous || roleOf(previous) !== "user")
        out.push({
          rule: "google-genai/call-after-user",
          index,
          detail: `contents[${index}]: Please ensure that function call turn comes immediately after a user turn or after a function response turn.`,
        });
      const next = contents[index + 1];
      // The function call turn must be answered: the same count rule, seen from the call side (a call turn followed by a user turn
      // without function responses, or by nothing, has 0 responses for N calls).
      if (next && responses(next).length === 0)
        out.push({
          rule: "google-genai/response-count",
          index: index + 1,
          detail: `contents[${index + 1}]: Please ensure that the number of function response parts (0) is equal to the number of function call parts of the function call turn (${calls(content).length}).`,
        });
    }
  });

  if (request.gemini3) checkThoughtSignatures(contents, out);
  if (request.system !== undefined) {
    const system = isObj(request.system) ? request.system : {};
    // SDK GenerateContentConfig.systemInstruction: "Instructions for the model to steer it toward better performance" (a Content of text parts).
    if (partsOf(system).length === 0 || partsOf(system).some((p) => typeof p.text !== "string"))
      out.push({
        rule: "google-genai/system-instruction",
        detail: `systemInstruction must be a Content with text parts, got ${show(request.system)}`,
      });
  }
  return out;
}

// https://ai.google.dev/gemini-api/docs/thought-signatures: "When using Gemini 3 models, you must pass back thought signatures during
// function calling, otherwise you will get a validation error (4xx status code)." Validation is on the current turn: the steps after
// the last user message with standard content (not a function response). In each step (model content) the first functionCall part
// carries the signature; for parallel calls "only the first functionCall part" has one. API error: "Function call `tool_name` in the
// `1.` content block is missing a `thought_signature`." (https://qiita.com/kai_kou/items/a15b2da37d6a058b79e6)
// Any string passes here, including the sentinel `skip_thought_signature_validator` that the docs offer for calls with no signature
// (the AI SDK Google provider injects it: "Injected the documented `skip_thought_signature_validator` sentinel", @ai-sdk/google dist).
function checkThoughtSignatures(contents: Obj[], out: Violation[]) {
  let start = 0;
  contents.forEach((content, index) => {
    if (roleOf(content) === "user" && partsOf(content).some((p) => !isObj(p.functionResponse))) start = index + 1;
  });
  for (let index = start; index < contents.length; index++) {
    const content = contents[index]!;
    if (roleOf(content) !== "model") continue;
    const first = calls(content)[0];
    if (first && typeof first.thoughtSignature !== "string") {
      const name = str((first.functionCall as Obj).name);
      out.push({
        rule: "google-genai/thought-signature",
        index,
        detail: `Function call \`${String(name)}\` in the \`${index}.\` content block is missing a \`thought_signature\`.`,
      });
    }
  }
}
