import type { AnyMessage } from "../ground/types.js";
import {
  statefulCompactor,
  type StatefulCompactor,
  type StatefulCompactorOptions,
} from "../state/stateful-compactor.js";
import { expectedMessage } from "../ground/describe-value.js";
import { withDefaults } from "../ground/option-defaults.js";

/** The options of an adapter: those of `statefulCompactor`, with an id that may be read from the adapter's own arguments. */
export type AdapterOptions<M extends AnyMessage, Args> = Omit<StatefulCompactorOptions<M>, "conversationId"> & {
  /**
   * The conversation's id: a string, or a function of the framework's arguments to this adapter
   * (return `undefined` to let the id be derived from the conversation's first messages).
   * @default derived from the conversation's first messages
   */
  conversationId?: string | ((args: Args) => string | undefined);
};

/** Builds an adapter's stateful compactor, and the function that names the conversation of each call. */
export function adapterCompactor<M extends AnyMessage, Args>(
  options: AdapterOptions<M, Args>,
  defaults: Partial<StatefulCompactorOptions<M>>,
): { compact: StatefulCompactor<M>; idOf: (args: Args) => { conversationId?: string } } {
  if (typeof options !== "object" || options === null || Array.isArray(options)) {
    // A ready hook is no longer taken: the adapter's compaction must live in a store, per conversation.
    const hint =
      typeof options === "function" ? " (a ready hook is not taken: pass the options the hook was made with)" : "";
    throw new TypeError(`${expectedMessage("options", "statefulCompactor options", options)}${hint}`);
  }
  const { conversationId, ...rest } = options;
  if (conversationId !== undefined && typeof conversationId !== "string" && typeof conversationId !== "function") {
    throw new TypeError(expectedMessage("conversationId", "a string or a function", conversationId));
  }
  const compact = statefulCompactor<M>({
    ...withDefaults(defaults, rest),
    ...(typeof conversationId === "string" ? { conversationId } : {}),
  });
  const idOf = (args: Args): { conversationId?: string } => {
    if (typeof conversationId !== "function") return {};
    const id = conversationId(args);
    return id === undefined ? {} : { conversationId: id };
  };
  return { compact, idOf };
}
