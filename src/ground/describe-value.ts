/** The type of a value as error messages name it: `null` and `array` are told apart from `object`. */
export function typeName(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  return typeof value;
}

/** The house form of a validation message: ``Expected `name` to be what, got `value` (type)``. */
export function expectedMessage(name: string, what: string, value: unknown): string {
  return `Expected \`${name}\` to be ${what}, got ${describeValue(value)} (${typeName(value)})`;
}

/** A short, backticked rendering of a value for an error message. */
export function describeValue(value: unknown): string {
  let text: string;
  if (typeof value === "function") text = value.name ? `[Function ${value.name}]` : "[Function]";
  else if (typeof value === "object" && value !== null) {
    try {
      text = JSON.stringify(value) ?? String(value);
    } catch {
      text = Object.prototype.toString.call(value);
    }
  } else text = String(value);
  if (text.length > 60) text = `${text.slice(0, 57)}...`;
  return `\`${text}\``;
}
