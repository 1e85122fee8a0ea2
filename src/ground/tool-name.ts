import { expectedMessage } from "./describe-value.js";

/**
 * A tool name every provider takes: OpenAI's rule for function names, the strictest of them ("Must
 * be a-z, A-Z, 0-9, or contain underscores and dashes, with a maximum length of 64", openai
 * resources/shared.d.ts `FunctionDefinition.name`). Undefined when left out; a `TypeError` naming
 * the option otherwise.
 */
export function checkedToolName(value: unknown, name: string): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== "string" || !/^[A-Za-z0-9_-]{1,64}$/.test(value)) {
    throw new TypeError(expectedMessage(name, "a tool name of letters, digits, `_` and `-`, at most 64", value));
  }
  return value;
}
