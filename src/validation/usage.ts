import type { ReportedUsage } from "../ground/types.js";
import { expectedMessage } from "../ground/describe-value.js";

/** Checks a reported usage against the messages it describes; undefined passes. */
export function checkedUsage(value: unknown, messageCount: number, name = "usage"): ReportedUsage | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== "object" || value === null) throw new TypeError(expectedMessage(name, "an object `{ inputTokens, messageCount }`", value));
  const { inputTokens, messageCount: held } = value as Record<string, unknown>;
  if (typeof inputTokens !== "number" || !Number.isFinite(inputTokens) || inputTokens < 0) {
    throw new TypeError(expectedMessage(`${name}.inputTokens`, "a finite number from 0 and up", inputTokens));
  }
  if (typeof held !== "number" || !Number.isInteger(held) || held < 0 || held > messageCount) {
    throw new TypeError(expectedMessage(`${name}.messageCount`, `an integer from 0 to the number of messages (${messageCount})`, held));
  }
  return { inputTokens, messageCount: held };
}
