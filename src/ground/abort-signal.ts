import { expectedMessage } from "./describe-value.js";

/**
 * Checks an optional abort signal by shape rather than `instanceof`, so signals from another realm
 * or a polyfill are accepted. Throws a `TypeError` naming `name`.
 */
export function optionalAbortSignal(value: unknown, name: string): AbortSignal | undefined {
  if (value === undefined) return undefined;
  const signal = value as AbortSignal | null;
  if (
    typeof signal !== "object" ||
    signal === null ||
    typeof signal.aborted !== "boolean" ||
    typeof signal.addEventListener !== "function"
  ) {
    throw new TypeError(expectedMessage(name, "an AbortSignal", value));
  }
  return signal;
}
