// Reads tool-result payloads back out of any dialect, for assertions about masking.
type Message = Record<string, unknown>;
type Part = Record<string, unknown>;

/** Every tool result's payload, in transcript order, with the index of the message holding it. */
export function toolResultPayloads(messages: readonly object[]): { index: number; payload: unknown }[] {
  const out: { index: number; payload: unknown }[] = [];
  messages.forEach((message, index) => {
    const m = message as Message;
    if (m["type"] === "function_call_output" || m["type"] === "function_call_result")
      out.push({ index, payload: m["output"] });
    else if (m["role"] === "toolResult") out.push({ index, payload: ((m["content"] as Part[])[0] as Part)["text"] });
    else if (m["role"] === "tool" && typeof m["tool_call_id"] === "string") out.push({ index, payload: m["content"] });
    else if (Array.isArray(m["parts"])) {
      for (const part of m["parts"] as Part[]) {
        const response = part["functionResponse"] as Part | undefined;
        if (response) out.push({ index, payload: (response["response"] as Part)["output"] });
      }
    } else if (Array.isArray(m["content"])) {
      for (const part of m["content"] as Part[]) {
        if (part["type"] === "tool_result") out.push({ index, payload: part["content"] });
        if (part["type"] === "tool-result") out.push({ index, payload: (part["output"] as Part)["value"] });
        const result = part["toolResult"] as Part | undefined;
        if (result) out.push({ index, payload: ((result["content"] as Part[])[0] as Part)["text"] });
        const response = part["toolResponse"] as Part | undefined;
        if (response) out.push({ index, payload: response["output"] });
      }
    }
  });
  return out;
}
