// Shared shapes and small readers for the provider request checkers in this folder.

/** One reason a provider would refuse a request. `index` is the position in the message (or item) array. */
export interface Violation {
  rule: string;
  index?: number;
  detail: string;
}

/** What the checkers read: the conversation array plus the few request settings some rules depend on. */
export interface ProviderRequest {
  /** Anthropic/Bedrock/Chat `messages`, Responses `input`, Gemini `contents`, Genkit `messages`. */
  messages: readonly unknown[];
  /** Anthropic/Bedrock `system`, Gemini `systemInstruction`. */
  system?: unknown;
  /**
   * Anthropic: whether the request enables extended thinking (`thinking: {type: "enabled" | "adaptive"}`).
   * Left undefined, the rules that depend on it are not checked.
   */
  thinking?: boolean;
  /** Anthropic: the model accepts mid-conversation `role: "system"` messages (Claude Opus 4.8 and later). */
  midConversationSystem?: boolean;
  /** Gemini: the model is a Gemini 3 model, which validates thought signatures on function calls. */
  gemini3?: boolean;
}

export type Obj = Record<string, unknown>;

export const isObj = (value: unknown): value is Obj =>
  typeof value === "object" && value !== null && !Array.isArray(value);

export const str = (value: unknown): string | undefined => (typeof value === "string" ? value : undefined);

/** The array under `key`, or an empty array. */
export const arr = (value: unknown, key: string): unknown[] => {
  if (!isObj(value)) return [];
  const found = value[key];
  return Array.isArray(found) ? found : [];
};

export const typeOf = (value: unknown): string | undefined => (isObj(value) ? str(value.type) : undefined);

/** Objects that carry `key` (a cache marker), at any depth of `value`, with where each sits. */
export function carriers(value: unknown, key: string, path = ""): { path: string; carrier: Obj }[] {
  if (typeof value !== "object" || value === null) return [];
  const found: { path: string; carrier: Obj }[] =
    isObj(value) && value[key] !== undefined && value[key] !== null ? [{ path, carrier: value }] : [];
  for (const [name, field] of Object.entries(value))
    found.push(...carriers(field, key, path === "" ? name : `${path}.${name}`));
  return found;
}

export const show = (value: unknown): string => {
  try {
    const text = JSON.stringify(value);
    return text === undefined ? String(value) : text.length > 120 ? `${text.slice(0, 117)}...` : text;
  } catch {
    return String(value);
  }
};
