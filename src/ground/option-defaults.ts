import { isPlainObject } from "./plain-object.js";

/**
 * The caller's options over `defaults`, group by group: a default group (such as
 * `summary: { role: "user" }`) fills in only the keys the caller's group leaves out, so
 * `summary: { maxTokens: 500 }` keeps the default role. A group that is not a plain object is kept
 * as given, for validation to name.
 */
export function withDefaults<T extends object>(defaults: object, options: T): T {
  const merged: Record<string, unknown> = {
    ...(defaults as Record<string, unknown>),
    ...(options as Record<string, unknown>),
  };
  for (const [key, value] of Object.entries(defaults)) {
    const given = (options as Record<string, unknown>)[key];
    if (given === undefined) merged[key] = value;
    else if (isPlainObject(value) && isPlainObject(given)) merged[key] = { ...value, ...given };
  }
  return merged as T;
}
