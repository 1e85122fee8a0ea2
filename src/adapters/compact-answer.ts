// What the `compact_context` tools of every framework share: the answer to one call.

import { answerRequest, settingsOf } from "../hook/compaction-requests.js";

/** What a compact tool answers for: a hook of `compactor`, a `statefulCompactor` or an adapter of this library. */
export type Requesting = object;

/**
 * The function that answers one call of a compact tool. The request is the call itself, which the
 * conversation's next model call reads from the transcript (under the compactor's
 * `compactTool.name`, which the tool must be registered under), so the tool keeps nothing and
 * needs no conversation id: the answer only tells the model what the next call will weigh.
 */
export function compactAnswerer(compact: unknown): (input: unknown) => string {
  const settings = settingsOf(compact);
  // A tool whose calls the compactor does not read would answer every call with nothing done.
  if (settings.compactTool === undefined)
    throw new TypeError(
      "Expected the compactor to read the tool's calls: build it with `compactTool: readCompactContext()` (from context-compactor/tools)",
    );
  return (input) => {
    const keep = (input as { keep?: unknown } | null)?.keep;
    return answerRequest(settings, typeof keep === "string" ? keep : "", {}).message;
  };
}
