import { refusesCompaction, verdictsOf } from "../dialects/provider-verdict.js";
import { usageOf } from "../dialects/provider-response.js";
import type { ProviderVerdict } from "../ground/types.js";

/** Conversations whose last request a hook remembers, to map a response's verdicts onto. */
export const MAX_REMEMBERED_REQUESTS = 1000;

/**
 * What the provider's response to the last request says: each verdict told, mapped onto the
 * messages of `sent` (the request as it was sent), whether it stopped at the context window,
 * whether it refused a provider compaction the request carried (the response is then the error the
 * SDK threw), and its usage object as the SDK returned it (the caller says which messages it held).
 */
export function readVerdict(
  response: unknown,
  sent: readonly object[] | undefined,
  tell: ((verdict: ProviderVerdict) => void) | undefined,
): { overflowed: boolean; refused: boolean; usage?: Record<string, unknown> } {
  if (response === undefined) return { overflowed: false, refused: false };
  const verdicts = verdictsOf(response, sent);
  for (const verdict of verdicts) tell?.(verdict);
  const overflowed = verdicts.some((verdict) => verdict.kind === "context-window-exceeded");
  const refused = verdicts.some(refusesCompaction);
  // The SDK's usage object as it came: the usage check reads each provider's fields (Anthropic's cache ones included).
  const usage = usageOf(response);
  return usage === undefined ? { overflowed, refused } : { overflowed, refused, usage };
}
