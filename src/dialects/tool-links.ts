import type { Dialect, MessageRecord } from "./dialect.js";
import { dialectOf } from "./registry.js";

/** One tool call or result, with the key that pairs them. */
export interface ToolLink {
  /** Index of the message. */
  index: number;
  /** The call id, or a key made for an id-less call (Gemini allows calls without ids). */
  key: string;
  /** The id as written, or undefined for an id-less call or result. */
  id: string | undefined;
}

// Keys for id-less calls cannot collide with real ids: no API issues ids with a NUL in them.
const anonymousKey = (n: number): string => `\u0000${n}`;

/**
 * Walks a transcript's tool calls and results in order. A call or result with an id pairs by id;
 * an id-less result answers the oldest id-less call not yet answered, which is how Gemini pairs
 * function responses without ids. Within a message, calls come before results (an AI SDK assistant
 * message may hold a provider-executed call and its result).
 */
export function walkToolLinks(
  messages: readonly object[],
  onCall: (link: ToolLink) => void,
  onResult: (link: ToolLink) => void,
  /** The dialect of each message, when the caller has already looked them up. */
  dialects?: readonly Dialect[],
): void {
  let calls = 0;
  const waiting: string[] = [];
  let next = 0;
  let index = 0;
  // One pair of visitors for the whole walk (every compaction walks every message), reading `index`.
  const visitCall = (id: string | undefined): void => {
    if (id !== undefined) {
      onCall({ index, key: id, id });
      return;
    }
    const key = anonymousKey(calls++);
    waiting.push(key);
    onCall({ index, key, id });
  };
  const visitResult = (id: string | undefined): void => {
    if (id !== undefined) {
      onResult({ index, key: id, id });
      return;
    }
    const key = next < waiting.length ? (waiting[next++] as string) : anonymousKey(-1 - next);
    onResult({ index, key, id });
  };
  for (; index < messages.length; index++) {
    const message = messages[index];
    if (typeof message !== "object" || message === null) continue;
    const dialect = dialects?.[index] ?? dialectOf(message);
    dialect.forEachToolCall(message as MessageRecord, visitCall);
    dialect.forEachToolResult(message as MessageRecord, visitResult);
  }
}
