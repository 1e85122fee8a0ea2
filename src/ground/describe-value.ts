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

/** The most characters of a value an error message quotes. */
const MOST_QUOTED = 32;
/** The most keys of an object an error message names. */
const MOST_KEYS = 6;

/** A run of letters, digits and `_ - + / = .`: what a key or a password is written in. */
const TOKEN_RUN = /[\w+\-/=.]+/g;

/**
 * `text` cut to a short excerpt, with every run that could be a key or a password left out: a
 * run of letters, digits and `_ - + / = .` of 16 or more characters, or of 6 or more that mixes
 * letters and digits (`AKIAIOSFODNN7EXAMPLE`, `hunter2xyz`, `sk-proj-…`). What names a mistake
 * stays (`assistant`, `-1`, `1.5`, `[]`). An error message is printed and logged where the
 * transcript is not, so it quotes no more of a value than it takes to recognize it.
 */
function excerpt(text: string): string {
  // Read a little past the quoted length, so a run that crosses it is judged whole.
  const head = text.slice(0, MOST_QUOTED * 4);
  const shown = head.replace(TOKEN_RUN, (run) =>
    run.length >= 16 || (run.length >= 6 && /\d/.test(run) && /[a-z]/i.test(run)) ? "…" : run,
  );
  return shown.length > MOST_QUOTED || head.length < text.length ? `${shown.slice(0, MOST_QUOTED - 3)}...` : shown;
}

/** An object by its shape: a typed array or buffer by its kind and size, never its bytes; anything else by its first keys, never their values. */
function shapeOf(value: object): string {
  if (Array.isArray(value)) return value.length === 0 ? "[]" : `[${value.length} item${value.length === 1 ? "" : "s"}]`;
  // A brand check, not `instanceof`: a typed array of another realm (`vm`, an iframe) is one too.
  const tag = Object.prototype.toString.call(value).slice(8, -1);
  try {
    if (ArrayBuffer.isView(value) || tag === "ArrayBuffer" || tag === "SharedArrayBuffer")
      return `${tag} of ${(value as ArrayBuffer).byteLength} bytes`;
    if (tag !== "Object") return `[object ${tag}]`;
    const keys = Object.keys(value);
    if (keys.length === 0) return "{}";
    return `{${keys.slice(0, MOST_KEYS).map(excerpt).join(", ")}${keys.length > MOST_KEYS ? ", …" : ""}}`;
  } catch {
    // A proxy or a getter that throws: the kind is all there is to say.
    return `[object ${tag}]`;
  }
}

/**
 * A short, backticked rendering of a value for an error message: a primitive as a short excerpt
 * with anything shaped like a key or a password left out, an object by its keys and an array by
 * its length (never their contents: a message or an option may hold a secret), a typed array by
 * its kind and size (never its bytes).
 */
export function describeValue(value: unknown): string {
  let text: string;
  if (typeof value === "function") text = value.name ? `[Function ${excerpt(value.name)}]` : "[Function]";
  else if (typeof value === "object" && value !== null) text = shapeOf(value);
  else text = excerpt(String(value));
  return `\`${text}\``;
}
