// What the Anthropic Messages API (`POST /v1/messages`, body `{ system?, messages }`) accepts of `messages`.
// Every rule quotes the documentation, the SDK type or the API's own error text it comes from.
import { type Obj, type ProviderRequest, type Violation, carriers, isObj, show, str, typeOf } from "./common.js";

type Block = Obj;
interface Turn {
  role: string;
  /** Indices of the messages merged into this turn. */
  indices: number[];
  blocks: { block: Block; message: number; position: number }[];
}

const blocksOf = (content: unknown): Block[] => {
  if (typeof content === "string") return [{ type: "text", text: content }];
  return Array.isArray(content) ? content.filter(isObj) : [];
};

const isThinking = (block: Block | undefined) => typeOf(block) === "thinking" || typeOf(block) === "redacted_thinking";

export function anthropicViolations(request: ProviderRequest): Violation[] {
  const out: Violation[] = [];
  const messages = request.messages;

  messages.forEach((raw, index) => {
    const message = isObj(raw) ? raw : {};
    const role = str(message.role);
    // SDK `MessageParam = UserMessageParam | AssistantMessageParam | SystemMessageParam` with roles 'user' | 'assistant' | 'system'
    // (node_modules/@anthropic-ai/sdk/resources/messages/messages.d.ts).
    // Models before Opus 4.8 refuse the system role: API error `messages: Unexpected role "system". The Messages API accepts a
    // top-level \`system\` parameter, not "system" as an input message role.`, newer wording "role 'system' is not supported on this
    // model" (quoted at https://docs.rs/gproxy-transform/2.5.2/gproxy_transform/transform/common/claude_mid_conv_system/index.html).
    if (role === "system") {
      if (!request.midConversationSystem) {
        out.push({
          rule: "anthropic/role",
          index,
          detail: `messages.${index}: Unexpected role "system" (use the top-level system parameter)`,
        });
      } else if (index === 0 || str((messages[index - 1] as Obj | undefined)?.role) !== "user") {
        // https://platform.claude.com/docs/en/about-claude/models/whats-new-claude-4-8: "Claude Opus 4.8 accepts role: "system"
        // messages immediately after a user turn in the messages array (subject to placement rules)."
        out.push({
          rule: "anthropic/system-placement",
          index,
          detail: `messages.${index}: a system message must come immediately after a user turn`,
        });
      }
    } else if (role !== "user" && role !== "assistant") {
      out.push({ rule: "anthropic/role", index, detail: `messages.${index}: Unexpected role ${show(role)}` });
    }

    // API error: "messages.N: all messages must have non-empty content except for the optional final assistant message"
    // (https://github.com/anthropics/claude-code/issues/6774).
    const content = message.content;
    const empty =
      content === "" || (Array.isArray(content) && content.length === 0) || content === undefined || content === null;
    if (empty && !(role === "assistant" && index === messages.length - 1)) {
      out.push({
        rule: "anthropic/non-empty-content",
        index,
        detail: `messages.${index}: all messages must have non-empty content except for the optional final assistant message`,
      });
    }

    blocksOf(content).forEach((block, position) => {
      if (typeOf(block) === "text") {
        const text = str(block.text) ?? "";
        // API errors "messages: text content blocks must be non-empty" (https://github.com/anthropics/claude-code/issues/59812) and
        // "messages: text content blocks must contain non-whitespace text" (https://github.com/anthropics/claude-code/issues/23440).
        // The string shorthand of an empty final assistant message is the allowed empty content above, not a block.
        if (typeof content === "string" && content === "") return;
        if (text === "")
          out.push({
            rule: "anthropic/text-non-empty",
            index,
            detail: `messages.${index}.content.${position}: text content blocks must be non-empty`,
          });
        else if (text.trim() === "")
          out.push({
            rule: "anthropic/text-non-empty",
            index,
            detail: `messages.${index}.content.${position}: text content blocks must contain non-whitespace text`,
          });
      }
      if (typeOf(block) === "image") checkImage(block, `messages.${index}.content.${position}`, index, out);
      if (typeOf(block) === "thinking") {
        // SDK ThinkingBlockParam: `signature: string` ("exactly as returned by the API in a previous response") and `thinking: string`.
        if (typeof block.signature !== "string" || typeof block.thinking !== "string")
          out.push({
            rule: "anthropic/thinking-fields",
            index,
            detail: `messages.${index}.content.${position}: a thinking block needs its thinking text and signature`,
          });
      }
      if (typeOf(block) === "redacted_thinking" && typeof block.data !== "string") {
        // SDK RedactedThinkingBlockParam: `data: string` ("Opaque and encrypted; pass it back unchanged").
        out.push({
          rule: "anthropic/thinking-fields",
          index,
          detail: `messages.${index}.content.${position}: a redacted_thinking block needs its data`,
        });
      }
      if (typeOf(block) === "tool_result")
        checkToolResultContent(block, `messages.${index}.content.${position}`, index, out);
      if (typeOf(block) === "compaction") {
        // SDK CompactionBlockMisplacedErrorDetails (error_code 'compaction_block_misplaced'): "The `compaction` block is not the first
        // block of the conversation, or is in a `system` message." (resources/messages/messages.d.ts)
        const firstConversationMessage = messages.findIndex((m) => str((m as Obj | undefined)?.role) !== "system");
        if (role === "system" || index !== firstConversationMessage || position !== 0)
          out.push({
            rule: "anthropic/compaction-placement",
            index,
            detail: `messages.${index}.content.${position}: the compaction block must be the first block of the conversation`,
          });
      }
    });

    if (role === "assistant") {
      const blocks = blocksOf(content);
      if (blocks.some(isThinking)) {
        // API error: "messages.N.content.0: If an assistant message contains any thinking blocks, the first block must be thinking or
        // redacted_thinking. Found text." (https://github.com/anthropics/claude-code/issues/20705)
        if (!isThinking(blocks[0]))
          out.push({
            rule: "anthropic/thinking-first",
            index,
            detail: `messages.${index}.content.0: If an assistant message contains any thinking blocks, the first block must be thinking or redacted_thinking. Found ${typeOf(blocks[0])}.`,
          });
        // API error: "messages.1: The final block in an assistant message cannot be `thinking`." (https://github.com/tailcallhq/forgecode/issues/2107)
        if (typeOf(blocks[blocks.length - 1]) === "thinking")
          out.push({
            rule: "anthropic/thinking-not-last",
            index,
            detail: `messages.${index}: The final block in an assistant message cannot be \`thinking\`.`,
          });
      }
    }
  });

  const turns = toTurns(messages);
  turns.forEach((turn, t) => {
    if (turn.role !== "assistant") return;
    const uses = turn.blocks.filter((b) => typeOf(b.block) === "tool_use");
    if (uses.length === 0) return;
    const next = turns[t + 1];
    const nextIndex = next?.indices[0] ?? turn.indices[turn.indices.length - 1]! + 1;
    // API error: "messages.N: `tool_use` ids were found without `tool_result` blocks immediately after: ID. Each `tool_use` block
    // must have a corresponding `tool_result` block in the next message." (https://github.com/anthropics/claude-code/issues/8210)
    // Consecutive same-role messages count as one turn: SDK MessageCreateParams.messages "Consecutive `user` or `assistant` turns
    // in your request will be combined into a single turn."
    const answered = new Set(
      next?.role === "user"
        ? next.blocks.filter((b) => typeOf(b.block) === "tool_result").map((b) => str(b.block.tool_use_id))
        : [],
    );
    const missing = uses.map((u) => str(u.block.id)).filter((id) => !answered.has(id));
    if (missing.length > 0 && next !== undefined)
      out.push({
        rule: "anthropic/tool-use-answered",
        index: nextIndex,
        detail: `messages.${nextIndex}: \`tool_use\` ids were found without \`tool_result\` blocks immediately after: ${missing.join(", ")}`,
      });
    if (next?.role === "user") {
      // https://platform.claude.com/docs/en/agents-and-tools/tool-use/handle-tool-calls, "Important formatting requirements": in the
      // user message containing tool results, the tool_result blocks come first; a text block before them "will cause a 400 error".
      // The same check, relayed by Bedrock: "Did not find 2 `tool_result` block(s) at the beginning of this message. Messages
      // following `tool_use` blocks must begin with a matching number of `tool_result` blocks."
      // (https://github.com/Amazon-Q-Developer/language-servers/pull/1235)
      const firstOther = next.blocks.findIndex((b) => typeOf(b.block) !== "tool_result");
      const lastResult = next.blocks.map((b) => typeOf(b.block)).lastIndexOf("tool_result");
      if (firstOther !== -1 && lastResult > firstOther) {
        const at = next.blocks[firstOther]!;
        out.push({
          rule: "anthropic/tool-results-first",
          index: at.message,
          detail: `messages.${at.message}.content.${at.position}: tool_result blocks must come before any other content in the user message that answers tool_use`,
        });
      }
    }
  });

  turns.forEach((turn, t) => {
    if (turn.role !== "user") return;
    const previous = turns[t - 1];
    const uses = new Set(
      previous?.role === "assistant"
        ? previous.blocks.filter((b) => typeOf(b.block) === "tool_use").map((b) => str(b.block.id))
        : [],
    );
    for (const { block, message, position } of turn.blocks) {
      if (typeOf(block) !== "tool_result" || uses.has(str(block.tool_use_id))) continue;
      // API error: "messages.N.content.M: unexpected `tool_use_id` found in `tool_result` blocks: ID. Each `tool_result` block must
      // have a corresponding `tool_use` block in the previous message." (https://github.com/anthropics/claude-code/issues/13460)
      out.push({
        rule: "anthropic/tool-result-has-use",
        index: message,
        detail: `messages.${message}.content.${position}: unexpected \`tool_use_id\` found in \`tool_result\` blocks: ${String(block.tool_use_id)}`,
      });
    }
  });

  const last = turns[turns.length - 1];
  if (
    request.thinking === true &&
    last?.role === "user" &&
    last.blocks.some((b) => typeOf(b.block) === "tool_result")
  ) {
    const assistant = turns[turns.length - 2];
    // API error: "messages.N.content.0.type: Expected `thinking` or `redacted_thinking`, but found `text`. When `thinking` is enabled,
    // a final `assistant` message must start with a thinking block (preceeding the lastmost set of `tool_use` and `tool_result`
    // blocks)." (https://github.com/n8n-io/n8n/issues/22550, https://github.com/anomalyco/opencode/issues/3077)
    if (assistant?.role === "assistant" && !isThinking(assistant.blocks[0]?.block))
      out.push({
        rule: "anthropic/thinking-final-assistant",
        index: assistant.indices[0]!,
        detail: `messages.${assistant.indices[0]}.content.0.type: Expected \`thinking\` or \`redacted_thinking\`, but found \`${typeOf(assistant.blocks[0]?.block)}\``,
      });
  }
  if (request.thinking === false && last?.role === "assistant" && last.blocks.some((b) => isThinking(b.block))) {
    // API error: "messages.1.content.0: When thinking is disabled, an `assistant` message in the final position cannot contain
    // `thinking`. To use thinking blocks, enable `thinking` in your request." (https://github.com/tailcallhq/forgecode/issues/1853)
    out.push({
      rule: "anthropic/thinking-disabled-final",
      index: last.indices[0]!,
      detail: "When thinking is disabled, an `assistant` message in the final position cannot contain `thinking`.",
    });
  }

  if (request.system !== undefined) checkSystem(request.system, out);
  // API error: "A maximum of 4 blocks with cache_control may be provided. Found 5." (the limit of
  // https://platform.claude.com/docs/en/build-with-claude/prompt-caching; quoted as the API returns it in
  // https://github.com/github/copilot-cli/issues/4185). The system blocks and the tools count too.
  const marked = carriers({ system: request.system, messages }, "cache_control");
  if (marked.length > 4)
    out.push({
      rule: "anthropic/cache-control-limit",
      detail: `A maximum of 4 blocks with cache_control may be provided. Found ${marked.length}.`,
    });
  for (const { path, carrier } of marked) {
    // SDK CacheControlEphemeral: `type: 'ephemeral'`, `ttl?: '5m' | '1h'`; thinking blocks cannot carry one ("Thinking blocks
    // cannot be cached directly with cache_control", https://platform.claude.com/docs/en/build-with-claude/prompt-caching).
    const control = carrier.cache_control;
    if (!isObj(control) || control.type !== "ephemeral")
      out.push({
        rule: "anthropic/cache-control",
        detail: `${path}.cache_control: expected { type: "ephemeral" }, got ${show(control)}`,
      });
    if (isThinking(carrier))
      out.push({ rule: "anthropic/cache-control", detail: `${path}: a thinking block cannot carry cache_control` });
  }
  return out;
}

function toTurns(messages: readonly unknown[]): Turn[] {
  const turns: Turn[] = [];
  messages.forEach((raw, index) => {
    const message = isObj(raw) ? raw : {};
    const role = str(message.role) ?? "";
    const blocks = blocksOf(message.content).map((block, position) => ({ block, message: index, position }));
    const previous = turns[turns.length - 1];
    if (previous && previous.role === role && role !== "system") {
      previous.indices.push(index);
      previous.blocks.push(...blocks);
    } else turns.push({ role, indices: [index], blocks });
  });
  return turns;
}

// SDK Base64ImageSource: `media_type: 'image/jpeg' | 'image/png' | 'image/gif' | 'image/webp'`; ImageBlockParam.source is
// Base64ImageSource | URLImageSource | FileImageSource.
const IMAGE_TYPES = new Set(["image/jpeg", "image/png", "image/gif", "image/webp"]);
function checkImage(block: Block, where: string, index: number, out: Violation[]) {
  const source = isObj(block.source) ? block.source : {};
  const kind = str(source.type);
  if (kind === "base64" && !(IMAGE_TYPES.has(str(source.media_type) ?? "") && typeof source.data === "string"))
    out.push({
      rule: "anthropic/image",
      index,
      detail: `${where}: base64 image source needs data and a media_type of image/jpeg, image/png, image/gif or image/webp, got ${show(source.media_type)}`,
    });
  else if (kind === "url" && typeof source.url !== "string")
    out.push({ rule: "anthropic/image", index, detail: `${where}: url image source needs a url` });
  else if (kind === "file" && typeof source.file_id !== "string")
    out.push({ rule: "anthropic/image", index, detail: `${where}: file image source needs a file_id` });
  else if (kind !== "base64" && kind !== "url" && kind !== "file")
    out.push({ rule: "anthropic/image", index, detail: `${where}: unknown image source type ${show(kind)}` });
}

// SDK ToolResultBlockParam: `content?: string | Array<TextBlockParam | ImageBlockParam | SearchResultBlockParam | DocumentBlockParam |
// ToolReferenceBlockParam | BrowserStateBlockParam>`; the handle-tool-calls page: "These content blocks can use the text, image,
// document, or search_result types."
const TOOL_RESULT_TYPES = new Set(["text", "image", "search_result", "document", "tool_reference", "browser_state"]);
function checkToolResultContent(block: Block, where: string, index: number, out: Violation[]) {
  if (typeof block.tool_use_id !== "string")
    out.push({ rule: "anthropic/tool-result-content", index, detail: `${where}: tool_result needs a tool_use_id` });
  const content = block.content;
  if (content === undefined || typeof content === "string") return;
  if (!Array.isArray(content)) {
    out.push({
      rule: "anthropic/tool-result-content",
      index,
      detail: `${where}: tool_result content must be a string or an array of blocks`,
    });
    return;
  }
  content.forEach((inner, i) => {
    const kind = typeOf(inner);
    if (!TOOL_RESULT_TYPES.has(kind ?? ""))
      out.push({
        rule: "anthropic/tool-result-content",
        index,
        detail: `${where}.content.${i}: ${show(kind)} is not a block type a tool_result may hold`,
      });
    else if (kind === "image") checkImage(inner as Block, `${where}.content.${i}`, index, out);
    else if (kind === "text" && (str((inner as Block).text) ?? "").trim() === "")
      out.push({
        rule: "anthropic/text-non-empty",
        index,
        detail: `${where}.content.${i}: text content blocks must contain non-whitespace text`,
      });
  });
}

// SDK MessageCreateParams.system: `string | Array<TextBlockParam>`.
function checkSystem(system: unknown, out: Violation[]) {
  if (typeof system === "string") return;
  if (!Array.isArray(system) || system.some((b) => typeOf(b) !== "text" || typeof (b as Obj).text !== "string"))
    out.push({
      rule: "anthropic/system",
      detail: `system must be a string or an array of text blocks, got ${show(system)}`,
    });
}
