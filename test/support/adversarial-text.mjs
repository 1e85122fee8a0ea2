// Texts shaped against the patterns a scanner of identifiers, secrets, fences or word pieces might
// use: a pattern that backtracks is quadratic (or worse) on at least one of them. Shared by
// test/linear-time.test.ts, which runs every path that reads untrusted text on each of them, and
// bench/linear-time.mjs, which times those paths at two sizes.

/** Twenty texts of `length` characters, by name. */
export function adversarialTexts(length) {
  const fill = (unit) => unit.repeat(Math.ceil(length / unit.length)).slice(0, length);
  return {
    "hex digits": Array.from({ length }, (_, i) => "0123456789abcdef"[(i * 7919) % 16]).join(""),
    "one long word": fill("a"),
    // A summary's section openings that never close: each one read must not scan to the end.
    "section openings without their end": fill("\n\n[Summary part: 1"),
    "dotted run": fill("a."),
    "slashed run": fill("a/"),
    "dashes and dots": fill("a.-"),
    "path segments without an end": fill("ab/cd."),
    spaces: fill(" "),
    "a tag opener before a megabyte of spaces": `<${fill(" ")}`,
    "tag openers": fill("< /"),
    "combining marks": fill("a\u0301\u0302"),
    "lone surrogates": fill("\ud800"),
    digits: fill("1"),
    "digits in card-like groups": fill("4111 "),
    "a URL that never ends": `http://${fill("a")}`,
    "at signs": fill("a@"),
    colons: fill("a:"),
    "key-like runs": fill("sk-"),
    "password settings": fill("password="),
    base64: fill("QUJD"),
    "mixed identifier characters": fill("x1-y2_z3.w4/#$"),
  };
}

// Written here, not with test/support/builders.ts: `bench/linear-time.mjs` loads this file in plain
// Node, which cannot import TypeScript.
const call = (text) => ({
  role: "assistant",
  content: null,
  tool_calls: [{ id: "c1", type: "function", function: { name: "run", arguments: JSON.stringify({ input: text }) } }],
});
const result = (text) => ({ role: "tool", tool_call_id: "c1", content: text });

/**
 * The library's paths that read untrusted text, each as a function of one text, given the library
 * (the sources in the tests, dist/ in the bench). A quarter of the text goes in a tool call and
 * its result, beside the whole of it in a user message.
 */
export function untrustedTextPaths({
  buildSummaryPrompt,
  compact,
  extractiveSummary,
  planCompaction,
  renderTranscript,
  statefulCompactor,
}) {
  const transcript = (text) => [
    { role: "user", content: text },
    call(text.slice(0, text.length / 4)),
    result(text.slice(0, text.length / 4)),
  ];
  return {
    extractiveSummary: (text) => extractiveSummary(transcript(text), { maxTokens: 4_000 }),
    // With a kept summary of the same text: every fact it holds is left out of the new one.
    "extractiveSummary with a kept summary": (text) =>
      extractiveSummary(transcript(text), { maxTokens: 4_000, keptSummary: text.slice(text.length / 2) }),
    renderTranscript: (text) => renderTranscript(transcript(text)),
    buildSummaryPrompt: (text) =>
      buildSummaryPrompt(transcript(text), {
        previousSummary: text.slice(0, text.length / 4),
        instructions: text.slice(0, text.length / 4),
      }),
    // With usage reported, each message also counts no less than its word pieces.
    "the word-pieces floor": (text) =>
      planCompaction(
        [
          { role: "user", content: "a" },
          { role: "assistant", content: "b" },
          { role: "user", content: text },
        ],
        { maxTokens: 100, usage: { inputTokens: 10, messageCount: 2 } },
      ),
    // The latest turn's tool result alone is over the window: only cutting it makes the request fit.
    truncation: (text) =>
      compact(
        [
          { role: "user", content: "old ".repeat(100) },
          { role: "assistant", content: "ok" },
          { role: "user", content: "go" },
          call("x"),
          result(text),
        ],
        {
          maxTokens: 2_000,
          summarize: () => "s",
          usage: { inputTokens: 20, messageCount: 3 },
        },
      ),
    // The text archived by a summary, then recalled by the longest query a recall reads (its first
    // 1,000 characters, a phrase the archive holds at every place of a repeated text), by the words
    // of that query, and by one short word found everywhere inside longer ones.
    recall: async (text) => {
      const stateful = statefulCompactor({
        maxTokens: 2_000,
        keepTail: 100,
        summarize: () => "s",
        archive: true,
        conversationId: "crafted",
      });
      await stateful([...transcript(text), { role: "assistant", content: "done" }, { role: "user", content: "go on" }]);
      const phrase = text.slice(0, 1_000);
      return [
        await stateful.recall(phrase),
        await stateful.recall(`${phrase.slice(0, 500)} ${phrase.slice(500)}`),
        await stateful.recall(text.slice(0, 1)),
      ];
    },
  };
}
