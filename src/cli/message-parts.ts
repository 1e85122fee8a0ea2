import { estimateTokens } from "../counting/estimate-tokens.js";
import { dialectOf } from "../dialects/registry.js";
import type { ToolPairProblem } from "../dialects/tool-pairs.js";
import { resolveOptions } from "../ground/options.js";
import type { PlanOptions } from "../ground/types.js";
import { planWithSettings } from "../plan/plan.js";
import { redactSecrets } from "../text/redact-secrets.js";
import { sealerOf } from "../text/seal-signer.js";

/**
 * What the plan does with one message: `head` (the system prompt, kept first), `kept` (in the tail,
 * as it is), `summarized` (replaced by the summary), `masked` (kept with its tool output cleared),
 * `cut` (kept with an oversized tool payload cut in the middle).
 */
export type MessageFate = "head" | "kept" | "summarized" | "masked" | "cut";

/** One message as the HTML report shows it. */
export interface MessageEntry {
  index: number;
  role: string;
  fate: MessageFate;
  /** The message's own count (`estimateTokens` of it alone). */
  tokens: number;
  /** Its count as the plan would send it, for a masked or cut message. */
  tokensAfter?: number;
  /** The message as JSON, shortened in the middle past `MAX_SHOWN` characters. */
  json: string;
  /** The message as the plan would send it, for a masked or cut message. */
  jsonAfter?: string;
  /** Tool-pair problems at this message, in words. */
  problems: string[];
}

/** The most characters of one message the page carries: a 50 MB tool output must not make a 50 MB page. */
export const MAX_SHOWN = 20_000;

/**
 * Whether `compact` JSON pretty-printed with two spaces stays within `limit` characters, read in one
 * pass without printing it: each line of the pretty form is indented by its depth, so a deeply
 * nested message grows with the square of its depth (4,000 levels: 32 M characters).
 */
function prettyFits(compact: string, limit: number): boolean {
  let length = compact.length;
  let depth = 0;
  let inString = false;
  for (let index = 0; index < compact.length && length <= limit; index++) {
    const code = compact.charCodeAt(index);
    if (inString) {
      if (code === 92) index++;
      else if (code === 34) inString = false;
    } else if (code === 34) inString = true;
    else if (code === 123 || code === 91) length += 1 + 2 * ++depth;
    else if (code === 125 || code === 93) length += 1 + 2 * --depth;
    else if (code === 44) length += 1 + 2 * depth;
    else if (code === 58) length += 1;
  }
  return length <= limit;
}

/** Characters read past each end of what the page shows, so that a secret across the cut is judged whole, in its context. */
const CONTEXT = 2_048;

/**
 * The message as the page shows it: pretty-printed unless that would be far longer than the
 * message, then as compact JSON; redacted as the model-free summary is (the page is made to be
 * attached to a bug report), and before it is cut, so that no cut leaves half a key.
 */
function shown(message: object): string {
  const compact = JSON.stringify(message) ?? String(message);
  const json = prettyFits(compact, Math.max(8 * compact.length, 1 << 20)) ? JSON.stringify(message, null, 2) : compact;
  if (json.length <= MAX_SHOWN) return redactSecrets(json);
  const half = MAX_SHOWN / 2;
  const head = redactSecrets(json.slice(0, half + CONTEXT)).slice(0, half);
  const tail = redactSecrets(json.slice(-(half + CONTEXT))).slice(-half);
  return `${head}\n…[${json.length - MAX_SHOWN} of ${json.length} characters not shown]…\n${tail}`;
}

/**
 * Every message of the transcript with what the plan under `options` does with it. Without
 * options (no budget), every message is `head` or `kept`. The plan is the one the hook would make.
 */
export function messageEntries(
  messages: readonly object[],
  problems: readonly ToolPairProblem[],
  options?: PlanOptions<object>,
): MessageEntry[] {
  const fates: MessageFate[] = messages.map(() => "kept");
  const after = new Map<number, object>();
  if (options !== undefined) {
    const settings = resolveOptions<object>(options, "plan");
    settings.sealer = sealerOf(settings.sealKey);
    const plan = planWithSettings(messages, settings);
    const older = new Set(plan.older);
    plan.head.forEach((_, index) => (fates[index] = "head"));
    messages.forEach((message, index) => {
      if (older.has(message)) fates[index] = "summarized";
    });
    // The tail holds the pinned request, then everything from `tailStart`; masked or cut messages
    // are new objects, told apart by whether masking made them (the plan's own transcript holds them).
    const tailIndices =
      plan.action === "mask"
        ? messages.map((_, index) => index).slice(plan.head.length)
        : [...plan.pinned, ...messages.map((_, index) => index).slice(plan.tailStart)];
    tailIndices.forEach((index, position) => {
      const sent = plan.tail[position];
      if (sent === undefined || sent === messages[index]) return;
      fates[index] = sent === plan.tokens.messages[index] ? "masked" : "cut";
      after.set(index, sent);
    });
  }
  const problemsAt = new Map<number, string[]>();
  for (const problem of problems)
    problemsAt.set(problem.index, [
      ...(problemsAt.get(problem.index) ?? []),
      `${problem.kind} (call ${problem.id || "without an id"})`,
    ]);
  return messages.map((message, index) => {
    const sent = after.get(index);
    const entry: MessageEntry = {
      index,
      role: dialectOf(message).role(message as Record<string, unknown>) ?? "item",
      fate: fates[index]!,
      tokens: estimateTokens([message]),
      json: shown(message),
      problems: problemsAt.get(index) ?? [],
    };
    if (sent !== undefined) {
      entry.tokensAfter = estimateTokens([sent]);
      entry.jsonAfter = shown(sent);
    }
    return entry;
  });
}
