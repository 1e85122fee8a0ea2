import type { Settings } from "../ground/options.js";
import type { AnyMessage } from "../ground/types.js";
import type { MessageFormats } from "../dialects/format-claims.js";
import { formatDialect } from "../dialects/transcript-format.js";
import { headLength } from "../plan/split-at-user-boundary.js";
import type { TranscriptView } from "../plan/transcript-view.js";
import { checkedSummary } from "../stores/check-state.js";
import type { ConversationState } from "../stores/conversation-state.js";
import { digestMessages } from "../stores/digest.js";
import { slidState } from "./slid-window.js";

/** The input as a stored state says to send it. */
export interface AppliedState<M extends AnyMessage> {
  /** The state applied; undefined when none applies, and `base` is the input as it is. */
  state: ConversationState | undefined;
  /** The system prompt, the stored summary, then the input messages it does not cover. */
  base: readonly M[];
  /** Where each message of `base` sits in the input (-1 for a stored summary message); undefined when `base` is the input. */
  origin: number[] | undefined;
  /** The stored summary messages of `base`: this library's own, read from the store. */
  stored: ReadonlySet<object>;
}

/** What applying a state needs besides the input. */
export interface ApplyContext<M extends AnyMessage> {
  settings: Settings<M>;
  /** Told of stored state that does not hold what this library stores. */
  invalid: (error: unknown) => void;
  /**
   * Whether a state may follow a window that slid (see `slidState`): only under a conversation id
   * the caller gave. The automatic key is shared by every conversation that opens alike, and
   * the state of one of them must never be rebased onto another's input.
   */
  followsSlidWindow: boolean;
  /** The call's reading of its input: each message's format, told once. */
  formats?: MessageFormats | undefined;
}

/** Where the message at `index` of an applied state's `base` sits in the input (-1: a stored summary message). */
export const inputIndexOf =
  ({ origin }: Pick<AppliedState<AnyMessage>, "origin">) =>
  (index: number): number =>
    origin === undefined ? index : (origin[index] as number);

function range(from: number, to: number): number[] {
  const indices: number[] = [];
  for (let index = from; index < to; index++) indices.push(index);
  return indices;
}

const unapplied = <M extends AnyMessage>(messages: readonly M[]): AppliedState<M> => ({
  state: undefined,
  base: messages,
  origin: undefined,
  stored: new Set<object>(),
});

/**
 * The input as `stored` says to send it: the system prompt, the stored summary, then what it does
 * not cover; or the input as it is when the state's digest does not match the input's own leading
 * messages (and the input is no window slid over them, under a conversation id), or its summary
 * does not hold what this library stores.
 */
export async function appliedState<M extends AnyMessage>(
  messages: readonly M[],
  stored: ConversationState | undefined,
  context: ApplyContext<M>,
): Promise<AppliedState<M>> {
  const { formats } = context;
  const head = headLength(messages, formatDialect(messages, context.settings.format, formats), formats);
  // The summary is taken from the store only: a message of the input that looks like one is text of its author.
  if (stored === undefined || stored.covered <= head) return unapplied(messages);
  let state: ConversationState | undefined = stored;
  // A window that slid (only older messages dropped from its front) still continues from the state, rebased on it.
  if (state.covered > messages.length || (await digestMessages(messages.slice(0, state.covered))) !== state.digest) {
    state = context.followsSlidWindow ? await slidState(messages, state, head) : undefined;
  }
  if (state === undefined) return unapplied(messages);
  let summary: M[];
  try {
    summary = checkedSummary(state, messages, { head, formats }, context.settings);
  } catch (error) {
    context.invalid(error);
    return unapplied(messages);
  }
  const kept = [...state.pinned, ...range(state.covered, messages.length)];
  return {
    state,
    base: messages.slice(0, head).concat(
      summary,
      kept.map((index) => messages[index] as M),
    ),
    origin: [...range(0, head), ...summary.map(() => -1), ...kept],
    stored: new Set(summary),
  };
}

/** Of a key's branches, the one that covers the longest prefix of this input, applied; or the input as it is. */
export async function bestBranch<M extends AnyMessage>(
  messages: readonly M[],
  states: readonly ConversationState[],
  context: ApplyContext<M>,
): Promise<AppliedState<M>> {
  for (const state of [...states].sort((a, b) => b.covered - a.covered)) {
    const continued = await appliedState(messages, state, context);
    if (continued.stored.size > 0) return continued;
  }
  return unapplied(messages);
}

/**
 * The formats of an applied state's `base`, from the call's reading of its input: a message of the
 * input is asked by its index there, a stored summary message is told once, when first met.
 */
export function formatsOfBase<M extends AnyMessage>(
  { base, origin }: Pick<AppliedState<M>, "base" | "origin">,
  input: TranscriptView<M>,
): MessageFormats {
  if (origin === undefined) return input;
  return {
    at: (index) => {
      const at = origin[index] as number;
      return at >= 0 ? input.at(at) : input.outside(base[index] as object);
    },
    of: (message) => input.of(message),
    adopt: (copy, claim) => input.adopt(copy, claim),
  };
}
