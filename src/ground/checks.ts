import { expectedMessage } from "./describe-value.js";
import { isPlainObject } from "./plain-object.js";
import { rejectUnknownKeys } from "./unknown-keys.js";

/**
 * The checks every option goes through, written once: a value of the wrong type is a `TypeError`,
 * one out of range a `RangeError`, each naming the option with what was expected and what came.
 */

/** What an integer option must be, by its least value. */
const integerRule = (minimum: 0 | 1): string => (minimum === 1 ? "a positive integer" : "an integer from 0 and up");

/** An integer of at least `minimum` (0 or 1). */
export function integer(value: unknown, name: string, minimum: 0 | 1): number {
  const what = integerRule(minimum);
  if (typeof value !== "number") throw new TypeError(expectedMessage(name, what, value));
  if (!Number.isInteger(value) || value < minimum) throw new RangeError(expectedMessage(name, what, value));
  return value;
}

/** An integer of at least `minimum`, or `fallback` when left out. */
export function optionalInteger<F extends number | undefined>(
  value: unknown,
  name: string,
  minimum: 0 | 1,
  fallback: F,
): number | F {
  return value === undefined ? fallback : integer(value, name, minimum);
}

/** A function, or undefined when left out. */
export function optionalFunction<T>(value: unknown, name: string): T | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== "function") throw new TypeError(expectedMessage(name, "a function", value));
  return value as T;
}

/** A boolean, or `fallback` when left out. */
export function optionalBoolean(value: unknown, name: string, fallback = false): boolean {
  if (value === undefined) return fallback;
  if (typeof value !== "boolean") throw new TypeError(expectedMessage(name, "a boolean", value));
  return value;
}

/** One of `allowed`, or undefined when left out. */
export function optionalOneOf<T extends string>(value: unknown, name: string, allowed: readonly T[]): T | undefined {
  if (value === undefined) return undefined;
  const quoted = allowed.map((entry) => `\`"${entry}"\``);
  const what = quoted.length > 1 ? `${quoted.slice(0, -1).join(", ")} or ${quoted.at(-1)}` : (quoted[0] ?? "");
  if (typeof value !== "string") throw new TypeError(expectedMessage(name, what, value));
  if (!allowed.includes(value as T)) throw new RangeError(expectedMessage(name, what, value));
  return value as T;
}

/** One of `allowed`, or the first of them when left out. */
export function oneOf<T extends string>(value: unknown, name: string, allowed: readonly T[]): T {
  return optionalOneOf(value, name, allowed) ?? (allowed[0] as T);
}

/** A non-empty string, or undefined when left out. */
export function optionalNonEmptyString(value: unknown, name: string): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== "string") throw new TypeError(expectedMessage(name, "a non-empty string", value));
  if (value === "") throw new RangeError(expectedMessage(name, "a non-empty string", value));
  return value;
}

/** A positive number of milliseconds (a fraction allowed), or undefined when left out. */
export function optionalPositiveMs(value: unknown, name: string): number | undefined {
  if (value === undefined) return undefined;
  const what = "a positive number of milliseconds";
  if (typeof value !== "number") throw new TypeError(expectedMessage(name, what, value));
  if (!(value > 0)) throw new RangeError(expectedMessage(name, what, value));
  return value;
}

/**
 * An object of options (not null, not an array) holding only `known` keys; an unknown key names the
 * closest known one, under `prefix` when the object is itself an option (`"archive."`).
 */
export function optionsObject(
  value: unknown,
  name: string,
  known: readonly string[],
  prefix = "",
): Record<string, unknown> {
  if (!isPlainObject(value)) throw new TypeError(expectedMessage(name, "an object", value));
  rejectUnknownKeys(value, known, prefix);
  return value;
}
