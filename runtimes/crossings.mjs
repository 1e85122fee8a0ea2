// Crossings of a budget, read from the requests a model received: shared by the recipes' runs.
import { estimateTokens } from "../dist/index.js";

/**
 * A request counts when the one before it, with the messages added since, would have gone over
 * `budget`, so that a new compaction was due; the first counts when it is over `budget` itself.
 * Every other request can reuse the last summary.
 */
export function crossingsOf(requests, budget) {
  let crossings = requests.length > 0 && estimateTokens(requests[0]) > budget ? 1 : 0;
  for (let index = 1; index < requests.length; index++) {
    const before = requests[index - 1];
    const last = JSON.stringify(before.at(-1));
    const at = requests[index].findLastIndex((item) => JSON.stringify(item) === last);
    const added = at === -1 ? requests[index] : requests[index].slice(at + 1);
    if (estimateTokens(before) + estimateTokens(added) > budget) crossings++;
  }
  return crossings;
}
