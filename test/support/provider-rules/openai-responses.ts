// What the OpenAI Responses API (`POST /v1/responses`) accepts of the `input` item array.
// Types are from node_modules/openai/resources/responses/responses.d.ts; error texts are the API's own, as reported.
import { type Obj, type ProviderRequest, type Violation, isObj, show, str } from "./common.js";
import { breakpointViolations } from "./openai-chat.js";

/** The item's kind: `type`, or "message" for the EasyInputMessage shape (`type?: 'message'`). */
const kindOf = (item: Obj) => str(item.type) ?? (item.role !== undefined ? "message" : undefined);

// The call item and the output item that answers it (`call_id` on both). Only function calls: the errors below are reported for them.
const CALLS: Record<string, string> = { function_call: "function_call_output" };
// Tool output items of any kind are input-side items: a reasoning item is never followed by one.
const TOOL_OUTPUTS = new Set([
  "function_call_output",
  "custom_tool_call_output",
  "computer_call_output",
  "local_shell_call_output",
  "shell_call_output",
  "apply_patch_call_output",
  "mcp_approval_response",
]);
const OUTPUTS = new Map(Object.entries(CALLS).map(([call, output]) => [output, call]));

export function openaiResponsesViolations(request: ProviderRequest): Violation[] {
  const out: Violation[] = [];
  const items = request.messages.map((m) => (isObj(m) ? m : {}));

  items.forEach((item, index) => {
    const kind = kindOf(item);
    if (kind === "message") {
      // SDK EasyInputMessage.role: "The role of the message input. One of `user`, `assistant`, `system`, or `developer`."
      const role = str(item.role);
      if (!["user", "assistant", "system", "developer"].includes(role ?? ""))
        out.push({
          rule: "openai-responses/role",
          index,
          detail: `input[${index}].role: ${show(role)} is not one of user, assistant, system, developer`,
        });
      // SDK EasyInputMessage.content: `string | ResponseInputMessageContentList`; ResponseOutputMessage.content: output_text / refusal parts.
      const content = item.content;
      if (!(typeof content === "string" || Array.isArray(content)))
        out.push({
          rule: "openai-responses/content",
          index,
          detail: `input[${index}].content must be a string or an array of content parts`,
        });
    }
    if (kind === "compaction" && (typeof item.encrypted_content !== "string" || item.encrypted_content === "")) {
      // SDK ResponseCompactionItemParam: `encrypted_content: string` ("The encrypted content of the compaction summary."), `type: 'compaction'`.
      out.push({
        rule: "openai-responses/compaction",
        index,
        detail: `input[${index}]: a compaction item needs its encrypted_content`,
      });
    }
    if (kind === "reasoning") {
      // API error: "Item 'rs_…' of type 'reasoning' was provided without its required following item." (param "input";
      // https://github.com/continuedev/continue/issues/8933, https://github.com/openai/openai-node/issues/1567). The item a reasoning
      // item belongs to is an output item of the same response: an assistant message or a tool call, never an input message or a
      // tool output, and never nothing.
      const next = items[index + 1];
      const nextKind = next ? kindOf(next) : undefined;
      const follows =
        next !== undefined &&
        !(nextKind === "message" && next.role !== "assistant") &&
        !TOOL_OUTPUTS.has(nextKind ?? "");
      if (!follows)
        out.push({
          rule: "openai-responses/reasoning-followed",
          index,
          detail: `Item '${String(item.id)}' of type 'reasoning' was provided without its required following item.`,
        });
    }
    const answers = OUTPUTS.get(kind ?? "");
    if (answers) {
      const callId = str(item.call_id);
      const made = items
        .slice(0, index)
        .some((earlier) => kindOf(earlier) === answers && str(earlier.call_id) === callId);
      // API error: "No tool call found for function call output with call_id call_…." (param "input";
      // https://github.com/james-6-23/codex2api/issues/414, https://github.com/agentjido/req_llm/pull/426)
      if (!made)
        out.push({
          rule: "openai-responses/output-has-call",
          index,
          detail: `No tool call found for function call output with call_id ${String(callId)}.`,
        });
    }
    const expected = CALLS[kind ?? ""];
    if (expected) {
      const callId = str(item.call_id);
      const answered = items
        .slice(index + 1)
        .some((later) => kindOf(later) === expected && str(later.call_id) === callId);
      // API error: "No tool output found for function call call_…." (https://github.com/agentjido/req_llm/pull/454,
      // https://github.com/lace-ai/gai/pull/49)
      if (!answered)
        out.push({
          rule: "openai-responses/call-has-output",
          index,
          detail: `No tool output found for function call ${String(callId)}.`,
        });
    }
    if (
      kind === "function_call" &&
      (typeof item.call_id !== "string" || typeof item.name !== "string" || typeof item.arguments !== "string")
    )
      // SDK ResponseFunctionToolCall: `arguments: string`, `call_id: string`, `name: string`, `type: 'function_call'`.
      out.push({
        rule: "openai-responses/function-call-shape",
        index,
        detail: `input[${index}]: a function_call needs call_id, name and arguments (a JSON string)`,
      });
    if (kind === "function_call_output" && !(typeof item.output === "string" || Array.isArray(item.output)))
      // SDK ResponseInputItem.FunctionCallOutput.output: `string | ResponseFunctionCallOutputItemList`.
      out.push({
        rule: "openai-responses/function-call-output-shape",
        index,
        detail: `input[${index}]: function_call_output.output must be a string or a list of content items`,
      });
  });
  out.push(...breakpointViolations(items, "openai-responses"));
  return out;
}
