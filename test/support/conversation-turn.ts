// A turn of a numbered conversation, for the tests that run several conversations over one store:
// every text names its conversation, so text of another would show.
export type Message = Record<string, unknown>;

/** Turn `t` of conversation `c`: a question, a tool round, an answer. */
export function turn(c: number, t: number): Message[] {
  const id = `c${c}-call${t}`;
  return [
    { role: "user", content: `c${c}-t${t} question: ${"detail ".repeat(20)}` },
    {
      role: "assistant",
      content: null,
      tool_calls: [
        { id, type: "function", function: { name: "lookup", arguments: JSON.stringify({ q: `c${c}-q${t}` }) } },
      ],
    },
    { role: "tool", tool_call_id: id, content: `c${c}-result${t}: ${"fact ".repeat(60)}` },
    { role: "assistant", content: `c${c}-answer${t}` },
  ];
}
