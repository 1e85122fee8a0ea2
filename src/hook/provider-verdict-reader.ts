import type { ProviderVerdictReader } from "../ground/types.js";
import { readVerdict } from "./read-verdict.js";
import { withRefusedItemShadow } from "./refused-item-shadow.js";

/**
 * Makes a compactor read the provider's verdicts from `event.response`: each input transformation,
 * cache miss and refused native item, mapped onto the message of the transcript it concerns and
 * told to `events.onProviderVerdict`, and a refused provider compaction replaced by its readable
 * summary (or, for an item with none, a note that says it is lost) so the next request goes through.
 * Passed as `compactor({ verdicts: readProviderVerdicts() })`; a hook without it reads only a
 * response's usage and a stop at the context window, and carries none of this in its bundle.
 *
 * @returns the reader, for the `verdicts` option
 */
export function readProviderVerdicts(): ProviderVerdictReader {
  return { read: readVerdict, shadow: withRefusedItemShadow as ProviderVerdictReader["shadow"] };
}
