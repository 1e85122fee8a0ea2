import { summaryRoleIn } from "../dialects/library-messages.js";
import type { Dialect } from "../dialects/dialect.js";
import type { TranscriptTokens } from "../counting/token-counter.js";
import { SUMMARY_PREFIX } from "../ground/constants.js";
import type { Settings } from "../ground/options.js";
import type { AnyMessage } from "../ground/types.js";
import { SEAL_PLACEHOLDER } from "../text/summary-seal.js";

/** The text of a summary of a few words: less room than its message takes holds no summary at all. */
export const SMALLEST_SUMMARY = "a few words ".repeat(5);

/** What the size of a summary message depends on besides its text. */
export interface SummaryFrame<M extends AnyMessage> {
  dialect: Dialect;
  options: Pick<Settings<M>, "summaryRole">;
  tokens: TranscriptTokens<M>;
  /** True when a user-role summary carries a seal (no stored state vouches for it). */
  sealed: boolean;
}

/** Tokens of a summary message with `text` in the transcript's format (prefix, seal and message included). */
export function summaryTokens<M extends AnyMessage>(frame: SummaryFrame<M>, text: string): number {
  const { dialect, options, tokens, sealed } = frame;
  // A user-role summary made without stored state carries a seal (see `summary-seal.ts`).
  const seal = sealed && summaryRoleIn(dialect, options.summaryRole) !== "system" ? SEAL_PLACEHOLDER : "";
  const summary = dialect.textMessage(options.summaryRole, `${SUMMARY_PREFIX}${text}${seal}`);
  return tokens.countList([summary as M]);
}
