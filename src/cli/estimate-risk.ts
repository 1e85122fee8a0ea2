import { CONTENT_CLASS_LABELS, ESTIMATE_ERROR, classifyText, type ContentClass } from "../counting/content-class.js";
import { mediaEstimate } from "../counting/media-tokens.js";
import { utf8ByteLength } from "../counting/utf8-length.js";
import { stringify } from "../dialects/content-parts.js";
import type { MessageRecord } from "../dialects/dialect.js";
import { dialectOf } from "../dialects/registry.js";

/** How much of a transcript's estimate one content class holds. */
export interface ContentShare {
  contentClass: ContentClass;
  /** The estimate's tokens of the texts of this class (bytes / 4 of each as its message's JSON holds it). */
  tokens: number;
  /** `tokens` as a share of the whole estimate, from 0 to 1. */
  share: number;
  /** How many of `tokens` are tool output (results, not calls or words). */
  inToolOutput: number;
}

/** Where the estimate stands against what a tokenizer would likely count. */
export interface EstimateRisk {
  /** What o200k would likely count: each text's estimate times its class's ratio, 4 tokens of framing a message, media as billed. */
  likelyTokens: number;
  /** The classes found, most tokens first. */
  content: ContentShare[];
  /** When the estimate is likely low by more than a tenth: the class most to blame, and the line that says so. */
  unsafe?: { contentClass: ContentClass; share: number; ratio: number; message: string };
}

/** Tokens of framing a chat API adds per message (role, separators), as bench/estimate-error.mjs counts them. */
const FRAMING = 4;
/** Likely more than this times the estimate, and the estimate is called unsafe: a tenth over is a request over its window. */
const UNSAFE_ABOVE = 1.1;

/** Bytes / 4 of a text as a JSON string value: what the text adds to its message's estimate. */
const estimateOf = (text: string) => Math.ceil(utf8ByteLength(JSON.stringify(text)) / 4);
const percent = (share: number) => `${Math.round(share * 100)}%`;
const number = (value: number) => Math.round(value).toLocaleString("en-US");

/**
 * What each message says, classed by `classifyText`, weighed by its share of the estimate, and
 * the count o200k would likely give it: `unsafe` names the class that makes the estimate low, so
 * `inspect` can say where to pass usage or an exact counter.
 *
 * @param messages - the transcript, in any format
 * @param estimate - its `estimateTokens`
 * @returns the classes found, the likely count, and `unsafe` when that is more than a tenth above the estimate
 * @example
 * ```ts
 * estimateRiskOf(messages, estimateTokens(messages)).unsafe?.message;
 * // "estimate may be low: 90% of tokens are digit-dense text (CSV, timestamps, numbers) in tool output, …"
 * ```
 */
export function estimateRiskOf(messages: readonly object[], estimate: number): EstimateRisk {
  const shares = new Map<ContentClass, { tokens: number; inToolOutput: number }>();
  let likely = 0;
  const add = (text: string, isToolOutput: boolean) => {
    if (text.length === 0) return;
    const contentClass = classifyText(text);
    const tokens = estimateOf(text);
    const entry = shares.get(contentClass) ?? { tokens: 0, inToolOutput: 0 };
    entry.tokens += tokens;
    if (isToolOutput) entry.inToolOutput += tokens;
    shares.set(contentClass, entry);
    likely += tokens * ESTIMATE_ERROR[contentClass];
  };
  for (const message of messages) {
    likely += FRAMING + (mediaEstimate(message)?.tokens ?? 0);
    for (const part of dialectOf(message).describe(message as MessageRecord).parts) {
      if (part.kind === "text") add(part.text, false);
      else if (part.kind === "call") add(stringify(part.input ?? ""), false);
      else if (part.kind === "result") add(part.output, true);
    }
  }
  const content = [...shares]
    .map(([contentClass, { tokens, inToolOutput }]) => ({
      contentClass,
      tokens,
      share: tokens / Math.max(1, estimate),
      inToolOutput,
    }))
    .sort((a, b) => b.tokens - a.tokens);
  const risk: EstimateRisk = { likelyTokens: Math.round(likely), content };
  if (estimate === 0 || likely <= estimate * UNSAFE_ABOVE) return risk;
  // The class most to blame is the one whose texts add the most tokens beyond their estimate.
  const excess = (share: ContentShare) => share.tokens * (ESTIMATE_ERROR[share.contentClass] - 1);
  const blamed = content.reduce<ContentShare | undefined>(
    (worst, share) => (excess(share) > 0 && (worst === undefined || excess(share) > excess(worst)) ? share : worst),
    undefined,
  );
  if (blamed === undefined) return risk;
  const ratio = ESTIMATE_ERROR[blamed.contentClass];
  const where = blamed.inToolOutput * 2 >= blamed.tokens ? " in tool output" : "";
  risk.unsafe = {
    contentClass: blamed.contentClass,
    share: blamed.share,
    ratio,
    message:
      `estimate may be low: ${percent(blamed.share)} of tokens are ${CONTENT_CLASS_LABELS[blamed.contentClass]}${where}, which o200k counts at about ${ratio.toFixed(1)}× the estimate ` +
      `(likely ${number(likely)} tokens, not ${number(estimate)}); pass usage or an exact counter`,
  };
  return risk;
}
