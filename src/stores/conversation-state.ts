// What `statefulCompactor` stores for one conversation, and how it is checked before use.

/** The version of the stored format; state of another version is ignored. */
export const STATE_VERSION = 3;

/**
 * One conversation's compaction: the summary message(s) that replace the first `covered` input
 * messages (whose digest is `digest`), except the head (a system prompt) and the `pinned` ones
 * kept verbatim. Never the transcript itself: kept messages always come from the current input.
 */
export interface ConversationState {
  version: typeof STATE_VERSION;
  /** How many leading input messages the state accounts for. */
  covered: number;
  /** SHA-256 of exactly those messages' JSON. */
  digest: string;
  /** Indices (below `covered`) of input messages kept verbatim after the summary. */
  pinned: number[];
  /** The messages that stand for the summarized ones: the summary, and the flush reminder when on. */
  summary: object[];
  /** For a provider's compaction stored byte for byte in `summary`: who made it, and its readable text when there is one. */
  madeBy?: { provider: string; model: string };
  /** The readable text of a stored provider compaction, sent as the summary to another provider or model. */
  text?: string;
  /**
   * What the provider last reported for a request sent with this state: `inputTokens` for the first
   * `messageCount` input messages, whose part after `covered` has the SHA-256 `digest`. The first
   * model call of the next request is counted from it, as a call that reports its own usage is.
   */
  usage?: { inputTokens: number; messageCount: number; digest: string };
  /**
   * The first 16 hex digits of the SHA-256 of each of the last covered messages after the head
   * (at most 256), oldest first: found again at the front of an input whose older messages have
   * slid away (a window of the thread's last messages), they say how far the summary covers it.
   */
  coveredTail?: string[];
  /**
   * How many messages of the whole conversation the state accounts for: `covered`, plus those that
   * had slid out of the front of the input (a window of the thread's last messages) before it. An
   * input message after the head at index `i` is the conversation's message `i +
   * conversationCovered - covered`, which is what the archive stores as its position. Undefined in
   * a state written before it was kept: nothing slid.
   */
  conversationCovered?: number;
}

const isIndex = (value: unknown): value is number => typeof value === "number" && Number.isInteger(value) && value >= 0;

/**
 * Reads the stored value of a key: one state, or `{ version, branches: [state, …] }` when the key
 * holds several branches of a conversation (most recently written first). Throws a `TypeError`
 * saying what is wrong with it.
 */
export function parseStates(text: unknown): ConversationState[] {
  if (typeof text !== "string") throw new TypeError(`Expected the stored state to be a string, got ${typeof text}`);
  const value = JSON.parse(text) as (Partial<ConversationState> & { branches?: unknown }) | null;
  if (typeof value !== "object" || value === null) throw new TypeError("Expected the stored state to be a JSON object");
  if (value.version !== STATE_VERSION)
    throw new TypeError(`Expected stored state of version ${STATE_VERSION}, got ${String(value.version)}`);
  if (value.branches === undefined) return [parseState(value)];
  if (!Array.isArray(value.branches) || value.branches.length === 0)
    throw new TypeError("Expected the stored state's `branches` to list at least one state");
  return value.branches.map((branch) => parseState({ ...(branch as object), version: STATE_VERSION }));
}

/** The stored value of a key's branches: one state as it is, several under `branches`. */
export function serializeStates(states: readonly ConversationState[]): string {
  return states.length === 1 ? JSON.stringify(states[0]) : JSON.stringify({ version: STATE_VERSION, branches: states });
}

/** Checks one state, already parsed from JSON. */
function parseState(value: Partial<ConversationState>): ConversationState {
  if (value.version !== STATE_VERSION)
    throw new TypeError(`Expected stored state of version ${STATE_VERSION}, got ${String(value.version)}`);
  const { covered, digest, pinned, summary } = value;
  if (!isIndex(covered) || covered === 0)
    throw new TypeError("Expected the stored state's `covered` to be a positive integer");
  if (typeof digest !== "string" || !/^[0-9a-f]{64}$/.test(digest))
    throw new TypeError("Expected the stored state's `digest` to be a SHA-256 hex string");
  if (!Array.isArray(pinned) || !pinned.every((index) => isIndex(index) && index < covered)) {
    throw new TypeError("Expected the stored state's `pinned` to list indices below `covered`");
  }
  if (!Array.isArray(summary) || summary.length === 0 || !summary.every((m) => typeof m === "object" && m !== null)) {
    throw new TypeError("Expected the stored state's `summary` to hold at least one message");
  }
  const { usage, madeBy, text } = value;
  if (
    madeBy !== undefined &&
    (typeof madeBy !== "object" ||
      madeBy === null ||
      typeof madeBy.provider !== "string" ||
      typeof madeBy.model !== "string")
  ) {
    throw new TypeError("Expected the stored state's `madeBy` to hold a `provider` and a `model`");
  }
  if (text !== undefined && typeof text !== "string")
    throw new TypeError("Expected the stored state's `text` to be a string");
  const { coveredTail } = value;
  if (
    coveredTail !== undefined &&
    (!Array.isArray(coveredTail) ||
      coveredTail.length > covered ||
      !coveredTail.every((hash) => typeof hash === "string" && /^[0-9a-f]{16}$/.test(hash)))
  ) {
    throw new TypeError("Expected the stored state's `coveredTail` to list at most `covered` hashes of 16 hex digits");
  }
  const { conversationCovered } = value;
  if (conversationCovered !== undefined && (!isIndex(conversationCovered) || conversationCovered < covered)) {
    throw new TypeError("Expected the stored state's `conversationCovered` to be an integer from `covered` up");
  }
  const source = {
    ...(madeBy === undefined
      ? {}
      : { madeBy: { provider: madeBy.provider, model: madeBy.model }, ...(text === undefined ? {} : { text }) }),
    ...(coveredTail === undefined ? {} : { coveredTail: [...coveredTail] }),
    ...(conversationCovered === undefined ? {} : { conversationCovered }),
  };
  if (usage === undefined) return { version: STATE_VERSION, covered, digest, pinned, summary, ...source };
  const valid =
    typeof usage === "object" &&
    usage !== null &&
    typeof usage.inputTokens === "number" &&
    Number.isFinite(usage.inputTokens) &&
    usage.inputTokens >= 0 &&
    isIndex(usage.messageCount) &&
    usage.messageCount >= covered &&
    typeof usage.digest === "string" &&
    /^[0-9a-f]{64}$/.test(usage.digest);
  if (!valid)
    throw new TypeError(
      "Expected the stored state's `usage` to hold `inputTokens`, a `messageCount` from `covered` on, and a SHA-256 `digest`",
    );
  return {
    version: STATE_VERSION,
    covered,
    digest,
    pinned,
    summary,
    ...source,
    usage: { inputTokens: usage.inputTokens, messageCount: usage.messageCount, digest: usage.digest },
  };
}
