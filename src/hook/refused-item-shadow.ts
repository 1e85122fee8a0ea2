import { SUMMARY_PREFIX } from "../ground/constants.js";
import type { Settings } from "../ground/options.js";
import { summaryRoleIn } from "../dialects/library-messages.js";
import {
  lastProviderCompaction,
  providerCompactionOf,
  withoutProviderCompaction,
} from "../dialects/provider-compaction.js";
import { formatDialect } from "../dialects/transcript-format.js";
import { systemPromptLength } from "../plan/split-at-user-boundary.js";
import type { AnyMessage } from "../ground/types.js";

/** What stands for a refused provider compaction that holds no readable text (an OpenAI item) in the plain hook. */
export const UNREADABLE_COMPACTION =
  "An earlier part of this conversation was compacted by the provider into an item it can no longer read; its content is lost. Ask the user for anything from it that is still needed.";

/**
 * The transcript with the provider compaction the provider refused, and what came before it after
 * the head (the user messages OpenAI's compaction returns with its item, what Anthropic drops before
 * a block), replaced by the library's own summary of its readable text (an Anthropic block's
 * `content`; an OpenAI item holds no readable text, and its shadow is kept only by `statefulCompactor`),
 * sealed as the hook seals a user-role summary, right after the head: the next plan reads it as the
 * summary in force. An item with no readable text (OpenAI's) gives way to `UNREADABLE_COMPACTION`:
 * its readable shadow is kept only by `statefulCompactor`, which has a store. Undefined when the
 * transcript holds no provider compaction.
 */
export function withRefusedItemShadow<M extends AnyMessage>(
  messages: readonly M[],
  settings: Settings<M>,
): M[] | undefined {
  const dialect = formatDialect(messages, settings.format);
  const index = lastProviderCompaction(messages, 0, dialect);
  if (index < 0) return undefined;
  const message = messages[index] as M;
  // An item that holds no readable text is gone with the key that sealed it: what it stood for is
  // said, so that the request goes through and the next summary starts from there.
  const text = providerCompactionOf(message, dialect)?.text ?? UNREADABLE_COMPACTION;
  const role = summaryRoleIn(dialect, settings.summaryRole);
  const sealer = role !== "system" ? settings.sealer : undefined;
  const summary = dialect.textMessage(
    settings.summaryRole,
    SUMMARY_PREFIX + (sealer === undefined ? text : sealer.seal(text, role)),
  ) as M;
  const reply = dialect.replyToSummary?.() as M | undefined;
  // What else an Anthropic message holding the block says (the reply after a compaction the server made) stays.
  const rest = withoutProviderCompaction(message, dialect) as M | undefined;
  const kept = rest === undefined ? [] : [rest];
  const head = Math.min(systemPromptLength(messages), index);
  return [
    ...messages.slice(0, head),
    summary,
    ...(reply === undefined ? [] : [reply]),
    ...kept,
    ...messages.slice(index + 1),
  ];
}
