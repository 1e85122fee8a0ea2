import { refusesCompaction, usageOf, verdictsOf } from "../dialects/provider-verdict.js";
import type { Dialect, MessageRecord } from "../dialects/dialect.js";
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

/**
 * How many messages the request a response answers held: those before the model's latest reply
 * (its run of messages, reasoning items included, back from its latest assistant message), which
 * the loop appended after the response came; all of them when the transcript holds no reply.
 */
export function requestLength(messages: readonly object[], dialect: Dialect): number {
  const roleAt = (index: number) => dialect.role(messages[index] as MessageRecord);
  let index = messages.length - 1;
  while (index >= 0 && roleAt(index) !== "assistant") index--;
  if (index < 0) return messages.length;
  while (index > 0 && (roleAt(index - 1) === "assistant" || roleAt(index - 1) === undefined)) index--;
  return index;
}

