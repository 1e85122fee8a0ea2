/** Why a compaction failed. */
export type CompactionErrorCode = "SUMMARIZE_FAILED" | "INVALID_SUMMARY" | "TIMEOUT" | "ABORTED";

// A registered symbol is shared by every copy of this module (ESM and CJS builds, iframes,
// worker realms), so the guard recognises errors made by another copy of the library.
const brand = Symbol.for("context-compactor.CompactionError");

/**
 * A compaction that did not happen. The caller's transcript is untouched whenever one is thrown.
 *
 * @example
 * ```ts
 * try { await hook({ messages }); } catch (error) {
 *   if (isCompactionError(error) && error.code === "TIMEOUT") retryLater();
 * }
 * ```
 */
export class CompactionError extends Error {
  override readonly name = "CompactionError";
  /** What went wrong. */
  readonly code: CompactionErrorCode;

  /**
   * @param code - what went wrong
   * @param message - a sentence for people
   * @param options - `cause`: the underlying error, when there is one
   */
  constructor(code: CompactionErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
    Object.defineProperty(this, brand, { value: true });
  }
}

/**
 * Tells whether `value` is a `CompactionError`, also when it comes from another copy of the library
 * or another realm, where `instanceof` fails.
 *
 * @param value - anything caught
 * @returns true for a `CompactionError`
 * @example
 * ```ts
 * if (isCompactionError(error)) console.log(error.code);
 * ```
 */
export function isCompactionError(value: unknown): value is CompactionError {
  return (
    typeof value === "object" &&
    value !== null &&
    ((value as Record<symbol, unknown>)[brand] === true || value instanceof CompactionError)
  );
}
