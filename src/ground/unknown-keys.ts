import { closestKey } from "./closest-key.js";

/**
 * Throws a `TypeError` for the first key of `object` not in `known`, suggesting the closest known
 * one: ``Unknown option `max_tokens`. Did you mean `maxTokens`?``. `prefix` names a nested object.
 */
export function rejectUnknownKeys(object: object, known: readonly string[], prefix: string): void {
  for (const key of Object.keys(object)) {
    if (known.includes(key)) continue;
    const suggestion = closestKey(key, known);
    const hint = suggestion
      ? `Did you mean \`${prefix}${suggestion}\`?`
      : `Known options: ${known.map((name) => `\`${prefix}${name}\``).join(", ")}.`;
    throw new TypeError(`Unknown option \`${prefix}${key}\`. ${hint}`);
  }
}
