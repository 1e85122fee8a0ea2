// What Genkit's Gemini plugins (Google AI and Vertex AI, package @genkit-ai/google-genai) accept of Genkit `MessageData[]`
// (`{ role: "system" | "user" | "model" | "tool", content: Part[] }`): first what the plugin's converter refuses, then, on the
// Gemini request it builds, the Gemini API's own rules (./google-genai.ts).
// Source read: firebase/genkit js/plugins/google-genai/src/common/converters.ts (toGeminiPart, toGeminiRole, toGeminiMessage) and
// the plugin's Gemini model runner (system message extraction).
import { type Obj, type ProviderRequest, type Violation, arr, isObj, show, str } from "./common.js";
import { googleGenaiViolations } from "./google-genai.js";

/** The Gemini `{ systemInstruction, contents }` the plugin would send, with the messages it would refuse to convert. */
export function genkitToGemini(messages: readonly unknown[]): {
  systemInstruction?: Obj;
  contents: Obj[];
  contentIndex: number[];
  violations: Violation[];
} {
  const violations: Violation[] = [];
  const list = messages.map((m) => (isObj(m) ? m : {}));
  // Model runner: `if (messages.length === 0) throw new Error('No messages provided.');`
  if (list.length === 0) violations.push({ rule: "genkit-gemini/no-messages", detail: "No messages provided." });
  // Model runner: "The first message detected with role=system will be used for systemInstructions." — the first system message,
  // wherever it is, is taken out of the conversation.
  const systemAt = list.findIndex((m) => m.role === "system");
  let systemInstruction: Obj | undefined;
  if (systemAt !== -1) systemInstruction = { role: "user", parts: convertParts(list[systemAt]!, systemAt, violations) };

  const contents: Obj[] = [];
  const contentIndex: number[] = [];
  list.forEach((message, index) => {
    if (index === systemAt) return;
    const role = str(message.role);
    // converters.ts toGeminiRole: 'user' -> 'user', 'model' -> 'model', 'tool' -> 'user', and for 'system':
    // `throw new Error('system role is only supported for a single message in the first position')`.
    if (role === "system") {
      violations.push({
        rule: "genkit-gemini/single-system",
        index,
        detail: `messages[${index}]: system role is only supported for a single message in the first position`,
      });
      return;
    }
    let content = arr(message, "content").map((p) => (isObj(p) ? p : {}));
    // converters.ts toGeminiMessage: the parts of a 'tool' message are sorted by `toolResponse.ref`.
    if (role === "tool")
      content = [...content].sort((a, b) => {
        const ar = str((a.toolResponse as Obj | undefined)?.ref);
        const br = str((b.toolResponse as Obj | undefined)?.ref);
        if (!ar && !br) return 0;
        if (!ar) return 1;
        if (!br) return -1;
        return parseInt(ar, 10) - parseInt(br, 10);
      });
    contents.push({
      role: role === "model" ? "model" : "user",
      parts: convertParts({ ...message, content }, index, violations),
    });
    contentIndex.push(index);
  });
  return { ...(systemInstruction ? { systemInstruction } : {}), contents, contentIndex, violations };
}

function convertParts(message: Obj, index: number, violations: Violation[]): Obj[] {
  const parts: Obj[] = [];
  arr(message, "content").forEach((raw, p) => {
    const part = isObj(raw) ? raw : {};
    const where = `messages[${index}].content[${p}]`;
    const metadata = isObj(part.metadata) ? part.metadata : {};
    // maybeAddGeminiThoughtSignatureAndMetadata: `metadata.thoughtSignature` becomes the Gemini part's `thoughtSignature`.
    const sign = (g: Obj): Obj =>
      metadata.thoughtSignature ? { ...g, thoughtSignature: metadata.thoughtSignature } : g;
    if (typeof part.text === "string") parts.push(sign({ text: part.text }));
    else if (isObj(part.media)) {
      const url = str(part.media.url) ?? "";
      if (url.startsWith("data:"))
        parts.push(
          sign({
            inlineData: {
              mimeType: part.media.contentType ?? url.slice(5, url.indexOf(";")),
              data: url.slice(url.indexOf(",") + 1),
            },
          }),
        );
      else
        parts.push(
          sign({ fileData: { fileUri: url, ...(part.media.contentType ? { mimeType: part.media.contentType } : {}) } }),
        );
    } else if (isObj(part.toolRequest)) {
      // toGeminiToolRequest: `if (!part.toolRequest?.input) throw Error('Invalid ToolRequestPart: input was missing.')`.
      if (!part.toolRequest.input)
        violations.push({
          rule: "genkit-gemini/tool-request-input",
          index,
          detail: `${where}: Invalid ToolRequestPart: input was missing.`,
        });
      parts.push(
        sign({
          functionCall: {
            name: part.toolRequest.name,
            args: part.toolRequest.input,
            ...(part.toolRequest.ref ? { id: part.toolRequest.ref } : {}),
          },
        }),
      );
    } else if (isObj(part.toolResponse)) {
      // toGeminiToolResponse: `if (part.toolResponse?.output === undefined && !part.toolResponse?.content) throw Error('Invalid
      // ToolResponsePart: output or content must be provided.')`.
      if (part.toolResponse.output === undefined && !part.toolResponse.content)
        violations.push({
          rule: "genkit-gemini/tool-response-output",
          index,
          detail: `${where}: Invalid ToolResponsePart: output or content must be provided.`,
        });
      parts.push(
        sign({
          functionResponse: {
            name: part.toolResponse.name,
            response: { name: part.toolResponse.name, content: part.toolResponse.output },
          },
        }),
      );
    } else if (isObj(part.resource)) {
      // toGeminiResource: `if (!part.resource?.uri) throw Error('Invalid ResourcePart: uri was missing.')`.
      if (!part.resource.uri)
        violations.push({
          rule: "genkit-gemini/resource-uri",
          index,
          detail: `${where}: Invalid ResourcePart: uri was missing.`,
        });
      parts.push(sign({ fileData: { fileUri: part.resource.uri, mimeType: "application/octet-stream" } }));
    } else if (typeof part.reasoning === "string") {
      // toGeminiReasoning: `{ thought: true }`, plus `text` when the reasoning is non-empty.
      parts.push(sign({ thought: true, ...(part.reasoning.length ? { text: part.reasoning } : {}) }));
    } else if (isObj(part.custom)) {
      // toGeminiCustom: codeExecutionResult, executableCode, geminiToolCall, geminiToolResponse, else
      // `throw new Error('Unsupported Custom Part type')`.
      const c = part.custom;
      if (c.codeExecutionResult) parts.push(sign({ codeExecutionResult: c.codeExecutionResult }));
      else if (c.executableCode) parts.push(sign({ executableCode: c.executableCode }));
      else if (c.geminiToolCall) parts.push(sign({ toolCall: c.geminiToolCall }));
      else if (c.geminiToolResponse) parts.push(sign({ toolResponse: c.geminiToolResponse }));
      else violations.push({ rule: "genkit-gemini/part", index, detail: `${where}: Unsupported Custom Part type` });
    } else {
      // toGeminiPart: `throw new Error('Unsupported Part type ' + JSON.stringify(part))` (e.g. a `data` part, or `{ text: undefined }`).
      violations.push({ rule: "genkit-gemini/part", index, detail: `${where}: Unsupported Part type ${show(part)}` });
    }
  });
  return parts;
}

export function genkitGeminiViolations(request: ProviderRequest): Violation[] {
  const { systemInstruction, contents, contentIndex, violations } = genkitToGemini(request.messages);
  // The Gemini API's rules on the converted request; their indices are mapped back to the Genkit message positions.
  const gemini = googleGenaiViolations({
    messages: contents,
    ...(systemInstruction ? { system: systemInstruction } : {}),
    ...(request.gemini3 !== undefined ? { gemini3: request.gemini3 } : {}),
  }).map((v) => ({
    ...v,
    ...(v.index !== undefined ? { index: contentIndex[v.index] ?? v.index } : {}),
    detail: `${v.detail} (as converted by the Genkit Gemini plugin)`,
  }));
  return [...violations, ...gemini];
}
