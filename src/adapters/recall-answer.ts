// What the `recall_context` tools of every framework share: their options, and the answer to one call.

import { expectedMessage } from "../ground/describe-value.js";
import type { StatefulCompactor } from "../state/stateful-compactor.js";
import { optionalInteger, optionsObject } from "../ground/checks.js";
import { checkedToolName } from "../ground/tool-name.js";
import { recallToolDefinition } from "../dialects/recall-tool-definition.js";

/** What a recall tool reads from: a `statefulCompactor` with `archive: true`, or an adapter made with one. */
export type Recalling = Pick<StatefulCompactor, "recall"> & { readonly recallToolName?: string | undefined };

/** Options of a framework's `recallTool`; `Args` is what the framework hands the tool on each call. */
export interface RecallToolOptions<Args> {
  /**
   * The conversation whose archive the tool reads: a string, or a function of the framework's
   * arguments to the tool. Never taken from the model's input.
   * @default the compactor's own `conversationId`
   */
  conversationId?: string | ((args: Args) => string | undefined);
  /**
   * The most one answer may take, in estimated tokens.
   * @default 2000
   */
  maxTokens?: number;
  /**
   * The name the tool is registered under. It must be the one the compactor's summaries give the
   * model (`archive.toolName`): another one is a `TypeError`, since the model would be told to call
   * a tool that does not exist.
   * @default the compactor's `archive.toolName`, `"recall_context"`
   */
  name?: string;
}

/** Validates a recall tool's arguments once, and returns the function that answers one call. */
export function recallAnswerer<Args>(
  compact: unknown,
  options: unknown,
): (input: unknown, args: Args, signal?: AbortSignal) => Promise<string> {
  recallToolNameOf(compact, options);
  if (typeof (compact as Partial<Recalling> | null)?.recall !== "function") {
    throw new TypeError(
      expectedMessage("compact", "a statefulCompactor with `archive: true`, or an adapter made with one", compact),
    );
  }
  optionsObject(options, "options", ["conversationId", "maxTokens", "name"]);
  const { conversationId } = options as RecallToolOptions<Args>;
  if (
    conversationId !== undefined &&
    typeof conversationId !== "function" &&
    (typeof conversationId !== "string" || conversationId === "")
  ) {
    throw new TypeError(expectedMessage("conversationId", "a non-empty string or a function", conversationId));
  }
  const maxTokens = optionalInteger((options as RecallToolOptions<Args>).maxTokens, "maxTokens", 1, undefined);
  const source = compact as Recalling;
  return async (input, args, signal) => {
    const query = (input as { query?: unknown } | null)?.query;
    if (typeof query !== "string" || query.trim() === "")
      return 'Expected `query` to be a non-empty string: an identifier, a phrase, or a range such as "12-40".';
    // The conversation is the application's; whatever else the model put in its input is ignored.
    const id = typeof conversationId === "function" ? conversationId(args) : conversationId;
    return source.recall(query, {
      ...(id === undefined ? {} : { conversationId: id }),
      ...(maxTokens === undefined ? {} : { maxTokens }),
      ...(signal === undefined ? {} : { signal }),
    });
  };
}

/**
 * The name a recall tool is registered under: the compactor's `archive.toolName`, which its
 * summaries tell the model to call. A different `name` is a `TypeError` that says how to agree.
 */
export function recallToolNameOf(compact: unknown, options: unknown): string {
  const registered = (compact as Partial<Recalling> | null)?.recallToolName ?? recallToolDefinition.name;
  const asked = checkedToolName((options as { name?: unknown } | null)?.name, "name");
  if (asked !== undefined && asked !== registered) {
    throw new TypeError(
      `Expected the recall tool's \`name\` to be \`${registered}\`, the name the compactor's summaries tell the model to call, got \`${asked}\`: make the compactor with \`archive: { toolName: "${asked}" }\``,
    );
  }
  return registered;
}
