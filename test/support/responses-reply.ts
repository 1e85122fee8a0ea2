// A Responses API answer, as the stub model sends it to `@openai/agents`.
export function responsesReply(output: object[]) {
  return {
    id: `resp_${Math.random().toString(36).slice(2)}`,
    object: "response",
    created_at: Math.floor(Date.now() / 1000),
    status: "completed",
    model: "stub-model",
    output,
    parallel_tool_calls: true,
    tool_choice: "auto",
    tools: [],
    usage: { input_tokens: 1, output_tokens: 1, total_tokens: 2, input_tokens_details: { cached_tokens: 0 }, output_tokens_details: { reasoning_tokens: 0 } },
  };
}
