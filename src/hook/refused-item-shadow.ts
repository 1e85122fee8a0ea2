import { SUMMARY_PREFIX } from "../ground/constants.js";
import type { Settings } from "../ground/options.js";
import { boundedMap, type BoundedMap } from "../ground/bounded-map.js";
import { summaryRoleIn } from "../dialects/library-messages.js";
import { lastProviderCompaction, providerCompactionOf } from "../dialects/provider-compaction.js";
import { formatDialect } from "../dialects/transcript-format.js";
import { sealed } from "../text/summary-seal.js";
import { systemPromptLength } from "../plan/split-at-user-boundary.js";
import type { AnyMessage, SummaryReplacement } from "../ground/types.js";

/** Encrypted items whose readable shadow a hook keeps, the ones it made itself. */
export const MAX_KEPT_SHADOWS = 1000;

/**
 * The readable shadows of the provider compactions a plain hook made, by the item's
 * `encrypted_content` (what OpenAI's `compaction` item is, and all a later input holds of it): the
 * transcript carries the item, and only this process knows what it replaced. Kept per
 * conversation: a shadow is read back only by the conversation its item was made for.
 */
export function shadowBook(): { keep(conversation: string, replacement: SummaryReplacement | undefined): void; of(conversation: string, message: object): string | undefined } {
  const shadows: BoundedMap<string> = boundedMap<string>(MAX_KEPT_SHADOWS);
  const contentOf = (message: object): unknown => (message as { encrypted_content?: unknown }).encrypted_content;
  return {
    keep(conversation, replacement) {
      if (replacement?.text === undefined || replacement.text.trim() === "") return;
      for (const message of replacement.messages) {
        const content = contentOf(message);
        if (typeof content === "string") shadows.set(`${conversation}\u0000${content}`, replacement.text);
      }
    },
    of(conversation, message) {
      const content = contentOf(message);
      return typeof content === "string" ? shadows.get(`${conversation}\u0000${content}`) : undefined;
    },
  };
}

/**
 * The transcript with the provider compaction the provider refused, and what came before it after
 * the head (the user messages OpenAI's compaction returns with its item, what Anthropic drops before
 * a block), replaced by the library's own summary of its readable text (an Anthropic block's
 * `content`, or the shadow this hook kept of an OpenAI item it made, the summary of that same part),
 * sealed as the hook seals a user-role summary, right after the head: the next plan reads it as the
 * summary in force. Undefined when the transcript holds no compaction with a text to stand in.
 */
export function withRefusedItemShadow<M extends AnyMessage>(messages: readonly M[], settings: Settings<M>, shadowOf: (message: object) => string | undefined): M[] | undefined {
  const dialect = formatDialect(messages, settings.format);
  const index = lastProviderCompaction(messages, 0, dialect);
  if (index < 0) return undefined;
  const message = messages[index] as M;
  const text = providerCompactionOf(message, dialect)?.text ?? shadowOf(message);
  if (text === undefined) return undefined;
  const role = summaryRoleIn(dialect, settings.summaryRole);
  const key = role !== "system" ? settings.sealKey : undefined;
  const summary = dialect.textMessage(settings.summaryRole, SUMMARY_PREFIX + (key === undefined ? text : sealed(text, role, key))) as M;
  const reply = dialect.replyToSummary?.() as M | undefined;
  // What else an Anthropic message holding the block says (the reply after a compaction the server made) stays.
  const content = (message as { content?: unknown }).content;
  const rest = Array.isArray(content) ? content.filter((block) => (block as { type?: unknown } | null)?.type !== "compaction") : [];
  const kept = rest.length > 0 ? [{ ...message, content: rest } as M] : [];
  const head = Math.min(systemPromptLength(messages), index);
  return [...messages.slice(0, head), summary, ...(reply === undefined ? [] : [reply]), ...kept, ...messages.slice(index + 1)];
}
