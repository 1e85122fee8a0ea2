import type { AnyMessage, Summarize, SummarizerFailure, SummarizerIdentity } from "./types.js";

/**
 * What a chain of summarizers (`firstOf`) says about one call: which of them made the summary
 * and why the earlier ones failed. It travels beside the call, keyed by the context object the
 * summarizer was given, because `summarize` returns only a text or a replacement.
 */
export interface SummarizerAccount {
  madeBy?: SummarizerIdentity;
  failures: SummarizerFailure[];
}

const accounts = new WeakMap<object, SummarizerAccount>();

/** Records what a chain did with the call whose context this is; the innermost chain's account wins over nothing, an outer one's over an inner one's. */
export function recordSummarizerAccount(context: object, account: SummarizerAccount): void {
  accounts.set(context, account);
}

/** What a chain recorded for this context, if it was one. */
export function summarizerAccountOf(context: object): SummarizerAccount | undefined {
  return accounts.get(context);
}

/**
 * A summarizer as events name it: the provider and model of a native backend, else the
 * function's own name, else its place in the chain.
 */
export function summarizerIdentity<M extends AnyMessage>(
  summarize: Summarize<M>,
  index: number | undefined,
): SummarizerIdentity {
  const source = (summarize as { madeBy?: { provider?: unknown; model?: unknown } }).madeBy;
  const native =
    typeof source?.provider === "string" && typeof source.model === "string"
      ? { provider: source.provider, model: source.model }
      : undefined;
  const own = typeof summarize.name === "string" && summarize.name !== "" ? summarize.name : undefined;
  const name = own ?? (index === undefined ? "summarize" : `summarizer ${index + 1}`);
  return { name, ...(index === undefined ? {} : { index }), ...native };
}
