/**
 * `fields` without the ones that are undefined: an optional property left out rather than set to
 * undefined, as `exactOptionalPropertyTypes` asks of an options object.
 */
export function definedFields<T extends object>(fields: T): { [K in keyof T]?: Exclude<T[K], undefined> } {
  const defined: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(fields)) if (value !== undefined) defined[key] = value;
  return defined as { [K in keyof T]?: Exclude<T[K], undefined> };
}
