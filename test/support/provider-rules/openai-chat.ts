// What the OpenAI Chat Completions API (`POST /v1/chat/completions`) accepts of `messages`.
// Types are from node_modules/openai/resources/chat/completions/completions.d.ts; error texts are the API's own, as reported.
import { type Obj, type ProviderRequest, type Violation, carriers, isObj, show, str, typeOf } from "./common.js";

// SDK: `ChatCompletionMessageParam = ChatCompletionDeveloperMessageParam | ChatCompletionSystemMessageParam |
// ChatCompletionUserMessageParam | ChatCompletionAssistantMessageParam | ChatCompletionToolMessageParam | ChatCompletionFunctionMessageParam`.
const ROLES = new Set(["developer", "system", "user", "assistant", "tool", "function"]);
// SDK: `ChatCompletionContentPart = ChatCompletionContentPartText | ChatCompletionContentPartImage |
// ChatCompletionContentPartInputAudio | ChatCompletionContentPart.File` (user messages).
const USER_PARTS = new Set(["text", "image_url", "input_audio", "file"]);

const toolCallIds = (message: Obj): string[] =>
  (Array.isArray(message.tool_calls) ? message.tool_calls : []).map((c) => str((c as Obj | undefined)?.id) ?? "");

export function openaiChatViolations(request: ProviderRequest): Violation[] {
  const out: Violation[] = [];
  const messages = request.messages.map((m) => (isObj(m) ? m : {}));

  messages.forEach((message, index) => {
    const role = str(message.role);
    if (!ROLES.has(role ?? "")) {
      out.push({
        rule: "openai-chat/role",
        index,
        detail: `messages[${index}].role: ${show(role)} is not one of developer, system, user, assistant, tool, function`,
      });
      return;
    }
    const content = message.content;
    if (role === "system" || role === "developer" || role === "tool") {
      // SDK ChatCompletionSystemMessageParam / ChatCompletionDeveloperMessageParam / ChatCompletionToolMessageParam:
      // `content: string | Array<ChatCompletionContentPartText>` (no images in a tool message).
      if (!textOnly(content))
        out.push({
          rule: "openai-chat/content",
          index,
          detail: `messages[${index}]: ${role} content must be a string or an array of text parts, got ${show(content)}`,
        });
    } else if (role === "user") {
      // SDK ChatCompletionUserMessageParam: `content: string | Array<ChatCompletionContentPart>`.
      const ok =
        typeof content === "string" ||
        (Array.isArray(content) && content.every((p) => USER_PARTS.has(typeOf(p) ?? "")));
      if (!ok)
        out.push({
          rule: "openai-chat/content",
          index,
          detail: `messages[${index}]: user content must be a string or an array of text, image_url, input_audio or file parts, got ${show(content)}`,
        });
    } else if (role === "assistant") {
      // SDK ChatCompletionAssistantMessageParam.content: "The contents of the assistant message. Required unless `tool_calls` or
      // `function_call` is specified." Parts: `Array<ChatCompletionContentPartText | ChatCompletionContentPartRefusal>`.
      const hasCalls = toolCallIds(message).length > 0 || message.function_call !== undefined;
      if ((content === undefined || content === null) && !hasCalls)
        out.push({
          rule: "openai-chat/content",
          index,
          detail: `messages[${index}]: assistant content is required unless tool_calls or function_call is specified`,
        });
      else if (
        content !== undefined &&
        content !== null &&
        typeof content !== "string" &&
        !(Array.isArray(content) && content.every((p) => typeOf(p) === "text" || typeOf(p) === "refusal"))
      )
        out.push({
          rule: "openai-chat/content",
          index,
          detail: `messages[${index}]: assistant content must be a string or an array of text or refusal parts`,
        });
      if (Array.isArray(message.tool_calls))
        message.tool_calls.forEach((call, c) => {
          // SDK ChatCompletionMessageFunctionToolCall: `id: string`, `type: 'function'`, `function: { name: string; arguments: string }`.
          const fn = isObj(call) && isObj(call.function) ? call.function : undefined;
          if (
            !isObj(call) ||
            typeof call.id !== "string" ||
            typeof fn?.name !== "string" ||
            typeof fn?.arguments !== "string"
          )
            if (!(isObj(call) && call.type === "custom"))
              out.push({
                rule: "openai-chat/tool-call-shape",
                index,
                detail: `messages[${index}].tool_calls[${c}]: a function tool call needs id, function.name and function.arguments (a JSON string)`,
              });
        });
    }
  });

  messages.forEach((message, index) => {
    if (message.role !== "tool") return;
    // The tool messages answering an assistant message follow it directly; find that assistant message.
    let j = index - 1;
    while (j >= 0 && messages[j]!.role === "tool") j--;
    const owner = messages[j];
    const ids = owner && owner.role === "assistant" ? toolCallIds(owner) : [];
    if (ids.length === 0) {
      // API error: "Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'."
      // (param "messages.[N].role"; https://github.com/openai/openai-go/issues/43, https://github.com/sdcb/chats/pull/132)
      out.push({
        rule: "openai-chat/tool-follows-tool-calls",
        index,
        detail: `messages.[${index}].role: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'`,
      });
    } else if (!ids.includes(str(message.tool_call_id) ?? "")) {
      // API error: "Invalid parameter: 'tool_call_id' of 'call_XXXXXXXXX' not found in 'tool_calls' of previous message."
      // (https://github.com/dapr/dapr-agents/issues/145); SDK ChatCompletionToolMessageParam.tool_call_id: "Tool call that this message is responding to."
      out.push({
        rule: "openai-chat/tool-call-id",
        index,
        detail: `Invalid parameter: 'tool_call_id' of ${show(message.tool_call_id)} not found in 'tool_calls' of previous message.`,
      });
    }
  });

  messages.forEach((message, index) => {
    if (message.role !== "assistant") return;
    const ids = toolCallIds(message);
    if (ids.length === 0) return;
    const answered = new Set<string>();
    for (let k = index + 1; k < messages.length && messages[k]!.role === "tool"; k++)
      answered.add(str(messages[k]!.tool_call_id) ?? "");
    const missing = ids.filter((id) => !answered.has(id));
    // API error: "An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The
    // following tool_call_ids did not have response messages: call_…" (https://github.com/sdcb/chats/pull/132,
    // https://github.com/BerriAI/litellm/issues/10083)
    if (missing.length > 0)
      out.push({
        rule: "openai-chat/tool-calls-answered",
        index,
        detail: `messages.[${index}]: An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: ${missing.join(", ")}`,
      });
  });

  out.push(...breakpointViolations(messages, "openai-chat"));
  return out;
}

const textOnly = (content: unknown) =>
  typeof content === "string" ||
  (Array.isArray(content) && content.every((p) => typeOf(p) === "text" && typeof (p as Obj).text === "string"));

/**
 * OpenAI's explicit cache breakpoints (GPT-5.6 and later): `prompt_cache_breakpoint: { mode: "explicit" }` on a content part,
 * "Marks the exact end of a reusable prompt prefix" (API reference, PromptCacheBreakpoint); "Each request can write up to four
 * breakpoints" (`prompt_cache_options`, https://developers.openai.com/api/docs/guides/prompt-caching). Assistant output parts
 * are not among the parts that take one.
 */
export function breakpointViolations(messages: readonly Obj[], prefix: string): Violation[] {
  const out: Violation[] = [];
  const marked = carriers(messages, "prompt_cache_breakpoint");
  if (marked.length > 4)
    out.push({
      rule: `${prefix}/cache-breakpoint-limit`,
      detail: `${marked.length} prompt_cache_breakpoint parts in one request: each request can write up to four`,
    });
  for (const { path, carrier } of marked) {
    const index = Number(path.split(".")[0]);
    if (!isObj(carrier.prompt_cache_breakpoint) || carrier.prompt_cache_breakpoint.mode !== "explicit")
      out.push({
        rule: `${prefix}/cache-breakpoint`,
        index,
        detail: `${path}.prompt_cache_breakpoint: expected { mode: "explicit" }`,
      });
    if (messages[index]?.role === "assistant" || !/^\d+\.content\.\d+$/.test(path))
      out.push({
        rule: `${prefix}/cache-breakpoint`,
        index,
        detail: `${path}: a breakpoint sits on a content part of a system, developer, user or tool message`,
      });
  }
  return out;
}
