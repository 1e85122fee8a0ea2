import { refusesCompaction, usageOf, verdictsOf } from "../dialects/provider-verdict.js";
import type { ProviderVerdict, UsageReport } from "../ground/types.js";

/** Conversations whose last request a hook remembers, to map a response's verdicts onto. */
export const MAX_REMEMBERED_REQUESTS = 1000;

/**
 * What the provider's response to the last request says: each verdict told, whether it stopped at
 * the context window, whether it refused a provider compaction the request carried (the response
 * is then the error the SDK threw), and its usage in terms of these messages when they still start with that
 * request (the messages the hook last handed back, the very same objects).
 */
export function readVerdict(
  response: unknown,
  lastSent: readonly object[] | undefined,
  messages: readonly object[],
  tell: ((verdict: ProviderVerdict) => void) | undefined,
): { overflowed: boolean; refused: boolean; usage?: UsageReport } {
  if (response === undefined) return { overflowed: false, refused: false };
  const verdicts = verdictsOf(response, lastSent);
  for (const verdict of verdicts) tell?.(verdict);
  const overflowed = verdicts.some((verdict) => verdict.kind === "context-window-exceeded");
  const refused = verdicts.some(refusesCompaction);
  // The SDK's usage object as it came: the usage check reads each provider's fields (Anthropic's cache ones included).
  const usage = usageOf(response);
  if (usage === undefined || lastSent === undefined || !Array.isArray(messages) || !startsWith(messages, lastSent)) return { overflowed, refused };
  return { overflowed, refused, usage: { ...usage, messageCount: lastSent.length } };
}

function startsWith(messages: readonly object[], prefix: readonly object[]): boolean {
  if (prefix.length > messages.length) return false;
  for (let index = 0; index < prefix.length; index++) if (messages[index] !== prefix[index]) return false;
  return true;
}

