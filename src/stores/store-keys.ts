// The store keys of a conversation: its state, its lease, its archive, and the key of a conversation without an id.

import type { Dialect } from "../dialects/dialect.js";
import type { MessageFormats } from "../dialects/format-claims.js";
import { transcriptDialect } from "../dialects/registry.js";
import { headLength } from "../plan/split-at-user-boundary.js";
import { digestMessages } from "./digest.js";

/** Store keys are namespaced, so one Redis or KV database can hold other data too. */
export const KEY_PREFIX = "context-compactor:";

/**
 * The store key of a conversation id. Ids come from clients, and the keys this library derives
 * from a conversation's key (its lease, `<key>:lease`) or makes without an id (`auto:<digest>`)
 * hold a `:` after the id's place: with `:` (and `%`, the escape) percent-encoded, no id reaches
 * them. A lone surrogate (half of an emoji cut in two) is written as `%u` and its four hex digits:
 * a store that sends keys as UTF-8 (Redis, every KV) would write each as U+FFFD, and ids that
 * differ only in a broken emoji would share one conversation's state, lease and archive. Every
 * key is therefore well-formed, and no two ids share one, since every `%` of an id is encoded. An
 * id without `:`, `%` or a lone surrogate keeps the key it always had, so its stored state is
 * still found.
 */
export function keyOfId(id: string): string {
  let key = KEY_PREFIX;
  let plainFrom = 0;
  for (let index = 0; index < id.length; index++) {
    const code = id.charCodeAt(index);
    let escaped: string | undefined;
    if (code === 0x25) escaped = "%25";
    else if (code === 0x3a) escaped = "%3A";
    else if (code >= 0xd800 && code <= 0xdbff) {
      const next = id.charCodeAt(index + 1);
      // A high surrogate followed by a low one is an astral character, kept as it is.
      if (next >= 0xdc00 && next <= 0xdfff) index++;
      else escaped = `%u${code.toString(16).toUpperCase()}`;
    } else if (code >= 0xdc00 && code <= 0xdfff) escaped = `%u${code.toString(16).toUpperCase()}`;
    if (escaped === undefined) continue;
    key += id.slice(plainFrom, index) + escaped;
    plainFrom = index + 1;
  }
  return key + id.slice(plainFrom);
}

/** The key of a conversation's lease: disjoint from every state key, since encoded ids hold no `:`. */
export const leaseKeyOf = (key: string) => `${key}:lease`;

/**
 * The key of a conversation's archive (`archive: true`): like the lease's, disjoint from every
 * state key and from every other conversation's keys, since encoded ids hold no `:`.
 */
export const archiveKeyOf = (key: string) => `${key}:archive`;

/** True for the key `automaticKey` makes, which no conversation id reaches. */
export const isAutomaticKey = (key: string): boolean => key.startsWith(`${KEY_PREFIX}auto:`);

/**
 * The key of a conversation without an id: the digest of its system prompt and its opening.
 * Strangers often open alike (one system prompt, "hi", one greeting, a suggested question), and
 * under one key they would share a queue and a lease, wait on each other's summaries and push each
 * other's branches out. The opening is therefore at least `OPENING_MESSAGES` messages and goes on
 * until it holds `OPENING_CHARACTERS` characters (up to `OPENING_MAX_MESSAGES`): short greetings
 * alike do not make two conversations one, while a long first message ends the opening early.
 * Two conversations whose openings are the same share the key, and the digest check still keeps
 * each from ever receiving the other's summary.
 *
 * The key of a conversation is fixed once its input holds the whole opening. An input large enough
 * to compact almost always does (the opening ends at the first messages that hold some text); one
 * that compacts before (a long system prompt, short messages) finds its state again only from then.
 */
export async function automaticKey(
  messages: readonly object[],
  dialect: Dialect = transcriptDialect(messages),
  formats?: MessageFormats,
): Promise<string> {
  return `${KEY_PREFIX}auto:${await digestMessages(messages.slice(0, openingEnd(messages, dialect, formats)))}`;
}

/** Messages after the system prompt that the opening holds at least: the first request, the reply to it and the next message. */
const OPENING_MESSAGES = 3;
/** Messages after the system prompt that the opening holds at most. */
const OPENING_MAX_MESSAGES = 8;
/** Characters of text (and bytes of binary data) past which the opening ends. */
const OPENING_CHARACTERS = 256;
/** Values looked at per message, at most: a message with more is taken for one that holds enough. */
const LOOKED_AT_PER_MESSAGE = 256;

/** The index after the opening: see `automaticKey`. */
function openingEnd(messages: readonly object[], dialect: Dialect, formats: MessageFormats | undefined): number {
  const head = headLength(messages, dialect, formats);
  let end = head;
  let characters = 0;
  while (
    end < messages.length &&
    end - head < OPENING_MAX_MESSAGES &&
    (end - head < OPENING_MESSAGES || characters < OPENING_CHARACTERS)
  ) {
    characters += sizeUpTo(messages[end++], OPENING_CHARACTERS - characters);
  }
  return end;
}

/**
 * The characters of a message's strings (and bytes of its binary data), counted only up to `limit`
 * and over at most `LOOKED_AT_PER_MESSAGE` values, so a huge message costs no more than a small one.
 */
function sizeUpTo(message: unknown, limit: number): number {
  let size = 0;
  const pending: unknown[] = [message];
  for (let looked = 0; pending.length > 0 && size < limit; looked++) {
    if (looked === LOOKED_AT_PER_MESSAGE) return limit;
    const value = pending.pop();
    if (typeof value === "string") size += value.length;
    else if (typeof value === "object" && value !== null) {
      if (ArrayBuffer.isView(value)) size += value.byteLength;
      else if (Array.isArray(value))
        for (let index = 0; index < value.length && pending.length < LOOKED_AT_PER_MESSAGE; index++)
          pending.push(value[index]);
      else {
        for (const name in value) {
          if (pending.length >= LOOKED_AT_PER_MESSAGE) break;
          if (Object.hasOwn(value, name)) pending.push((value as Record<string, unknown>)[name]);
        }
      }
    }
  }
  return Math.min(size, limit);
}
