// Lone surrogates in what the library hands back. A JSON body holding one is refused by the
// provider: Anthropic answers 400 "The request body is not valid JSON: no low surrogate in string"
// (anthropics/claude-code#10855 and its duplicates), and RFC 8259 §8.2 says a string with an
// unpaired surrogate gives unpredictable results in any JSON parser.

/** True when `text` holds no lone surrogate: `String.prototype.isWellFormed` where the runtime has it, else a scan of its code units. */
export function isWellFormed(text: string): boolean {
  const native = (String.prototype as { isWellFormed?: () => boolean }).isWellFormed;
  if (typeof native === "function") return native.call(text);
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code >= 0xd800 && code <= 0xdbff) {
      const next = index + 1 < text.length ? text.charCodeAt(index + 1) : 0;
      if (next < 0xdc00 || next > 0xdfff) return false;
      index++;
    } else if (code >= 0xdc00 && code <= 0xdfff) return false;
  }
  return true;
}

/**
 * Every string in a value (keys included), walked through arrays, plain objects and class
 * instances (LangChain's messages); a string that is JSON (a tool result cut by its structure, a
 * stored state) is read as JSON too, since its `\ud83d` escapes are lone surrogates once parsed.
 */
export function stringsIn(value: unknown, found: string[] = [], seen = new Set<object>()): string[] {
  if (typeof value === "string") {
    found.push(value);
    const start = value.trimStart().charAt(0);
    if (start === "{" || start === "[" || start === '"') {
      try {
        stringsIn(JSON.parse(value), found, seen);
      } catch {
        // not JSON: the text itself was checked
      }
    }
  } else if (typeof value === "object" && value !== null && !seen.has(value)) {
    seen.add(value);
    for (const [key, item] of Object.entries(value)) {
      found.push(key);
      stringsIn(item, found, seen);
    }
  }
  return found;
}

/** The strings of a value that hold a lone surrogate. */
export const malformedStrings = (value: unknown): string[] => stringsIn(value).filter((text) => !isWellFormed(text));
