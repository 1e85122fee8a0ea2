// One turn of many parallel tool calls (OpenAI chat), each answered by a line of code and a long
// comment: what cutting the results of one turn to fit works on. Shared by test/linear-time.test.ts,
// which counts the segmenter's calls on it, and bench/linear-time.mjs, which times the cut at two sizes.

/** A short chat, then one assistant message calling `count` tools and their `count` results. */
export function parallelToolTurn(count) {
  const ids = Array.from({ length: count }, (_, index) => `call_${index}`);
  const calls = {
    role: "assistant",
    content: null,
    tool_calls: ids.map((id) => ({ id, type: "function", function: { name: "read", arguments: "{}" } })),
  };
  const results = ids.map((id, index) => ({
    role: "tool",
    tool_call_id: id,
    content: `export const v${index} = ${index}; // ${"lorem ipsum dolor sit amet ".repeat(16)}`,
  }));
  return [
    { role: "system", content: "s" },
    { role: "user", content: "hi" },
    { role: "assistant", content: "hello" },
    { role: "user", content: "read every file" },
    calls,
    ...results,
  ];
}
