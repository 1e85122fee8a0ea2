// What Amazon Bedrock's Converse API (`POST /model/{modelId}/converse`, body `{ system?, messages }`) accepts of `messages`.
// Types are from node_modules/@aws-sdk/client-bedrock-runtime/dist-types/models/models_0.d.ts; error texts are the service's own
// ValidationException messages, as reported.
import { type Obj, type ProviderRequest, type Violation, arr, carriers, isObj, show, str } from "./common.js";

const blocksOf = (message: Obj) => arr(message, "content").map((b) => (isObj(b) ? b : {}));
const uses = (message: Obj) =>
  blocksOf(message)
    .filter((b) => isObj(b.toolUse))
    .map((b) => b.toolUse as Obj);
const results = (message: Obj) =>
  blocksOf(message)
    .filter((b) => isObj(b.toolResult))
    .map((b) => b.toolResult as Obj);

export function bedrockConverseViolations(request: ProviderRequest): Violation[] {
  const out: Violation[] = [];
  const messages = request.messages.map((m) => (isObj(m) ? m : {}));

  messages.forEach((message, index) => {
    const role = str(message.role);
    // SDK ConversationRole: `ASSISTANT: "assistant"`, `USER: "user"`.
    if (role !== "user" && role !== "assistant")
      out.push({
        rule: "bedrock-converse/role",
        index,
        detail: `messages.${index}.role: ${show(role)} is not user or assistant`,
      });
    // ValidationException: "The content field in the Message object at messages.X is empty. Add a ContentBlock object to the content
    // field and try again." (https://github.com/earendil-works/pi/pull/3443)
    const blocks = blocksOf(message);
    if (blocks.length === 0)
      out.push({
        rule: "bedrock-converse/content-non-empty",
        index,
        detail: `The content field in the Message object at messages.${index} is empty. Add a ContentBlock object to the content field and try again.`,
      });
    blocks.forEach((block, b) => {
      // ValidationException: "The text field in the ContentBlock object at messages.0.content.0 is blank. Add text to the text field,
      // and try again." (https://github.com/earendil-works/pi/issues/4975, https://github.com/OpenHands/OpenHands/issues/5339)
      if (typeof block.text === "string" && block.text.trim() === "")
        out.push({
          rule: "bedrock-converse/text-not-blank",
          index,
          detail: `The text field in the ContentBlock object at messages.${index}.content.${b} is blank. Add text to the text field, and try again.`,
        });
      // SDK Message.content: "You can only include images and documents if the `role` is `user`."
      if ((block.image !== undefined || block.document !== undefined) && role !== "user")
        out.push({
          rule: "bedrock-converse/media-in-user",
          index,
          detail: `messages.${index}.content.${b}: images and documents can only be included if the role is user`,
        });
      if (isObj(block.toolResult)) {
        const result = block.toolResult;
        // ValidationException: "The content field at messages.<n>.content.0.toolResult cannot be empty when status value is error."
        // (https://github.com/aws-samples/sample-multi-agent-orchestration-chat-on-agentcore/issues/15). SDK ToolResultBlock.content is
        // `ToolResultContentBlock[] | undefined` (json, text, image, document, video, searchResult).
        if (result.status === "error" && arr(result, "content").length === 0)
          out.push({
            rule: "bedrock-converse/tool-result-content",
            index,
            detail: `The content field at messages.${index}.content.${b}.toolResult cannot be empty when status value is error.`,
          });
        arr(result, "content").forEach((inner, i) => {
          if (isObj(inner) && typeof inner.text === "string" && inner.text.trim() === "")
            out.push({
              rule: "bedrock-converse/text-not-blank",
              index,
              detail: `The text field in the ContentBlock object at messages.${index}.content.${b}.toolResult.content.${i} is blank.`,
            });
        });
      }
    });
    // SDK Message.content: "If you include a `ContentBlock` with a `document` field in the array, you must also include a
    // `ContentBlock` with a `text` field."
    if (blocks.some((b) => b.document !== undefined) && !blocks.some((b) => typeof b.text === "string"))
      out.push({
        rule: "bedrock-converse/document-needs-text",
        index,
        detail: `messages.${index}: a message with a document block must also include a text block`,
      });
  });

  // ValidationException: "A conversation must start with a user message. Try again with a conversation that starts with a user
  // message." (https://github.com/langgenius/dify/issues/12340, https://github.com/elastic/kibana/pull/246393)
  if (messages.length > 0 && str(messages[0]!.role) !== "user")
    out.push({
      rule: "bedrock-converse/starts-with-user",
      index: 0,
      detail:
        "A conversation must start with a user message. Try again with a conversation that starts with a user message.",
    });

  messages.forEach((message, index) => {
    if (index === 0) return;
    // ValidationException: "A conversation must alternate between user and assistant roles. Make sure the conversation alternates
    // between user and assistant roles and try again." (https://github.com/Portkey-AI/gateway/issues/748,
    // https://github.com/langchain-ai/langchain-aws/issues/130)
    if (str(message.role) === str(messages[index - 1]!.role))
      out.push({
        rule: "bedrock-converse/alternate",
        index,
        detail:
          "A conversation must alternate between user and assistant roles. Make sure the conversation alternates between user and assistant roles and try again.",
      });
  });

  messages.forEach((message, index) => {
    const previous = messages[index - 1];
    const asked = previous && str(previous.role) === "assistant" ? uses(previous) : [];
    const answered = results(message);
    // ValidationException: "The number of toolResult blocks at messages.2.content exceeds the number of toolUse blocks of previous
    // turn." (https://github.com/Just-Curieous/Curie/issues/16, https://github.com/strands-agents/harness-sdk/issues/1435)
    if (answered.length > asked.length)
      out.push({
        rule: "bedrock-converse/tool-result-count",
        index,
        detail: `The number of toolResult blocks at messages.${index}.content exceeds the number of toolUse blocks of previous turn.`,
      });
    else {
      const ids = new Set(asked.map((u) => str(u.toolUseId)));
      // Claude models behind Converse pass the Anthropic checks through as "The model returned the following errors: messages.54:
      // Did not find 2 `tool_result` block(s) at the beginning of this message. Messages following `tool_use` blocks must begin
      // with a matching number of `tool_result` blocks." (https://github.com/Amazon-Q-Developer/language-servers/pull/1235); a
      // toolResult whose id answers no toolUse is the Anthropic "unexpected `tool_use_id` found in `tool_result` blocks".
      for (const result of answered)
        if (!ids.has(str(result.toolUseId)))
          out.push({
            rule: "bedrock-converse/tool-result-has-use",
            index,
            detail: `messages.${index}: toolResult ${show(result.toolUseId)} answers no toolUse of the previous turn`,
          });
    }
    if (str(message.role) === "assistant" && uses(message).length > 0) {
      const next = messages[index + 1];
      if (!next) return;
      const got = new Set(results(next).map((r) => str(r.toolUseId)));
      const missing = uses(message)
        .map((u) => str(u.toolUseId))
        .filter((id) => !got.has(id));
      // ValidationException: "Expected toolResult blocks at messages.2.content for the following Ids: tooluse_…"
      // (https://github.com/camel-ai/camel/issues/3954, https://github.com/agno-agi/agno/pull/6694)
      if (missing.length > 0)
        out.push({
          rule: "bedrock-converse/tool-use-answered",
          index: index + 1,
          detail: `Expected toolResult blocks at messages.${index + 1}.content for the following Ids: ${missing.join(", ")}`,
        });
    }
  });

  // "Max checkpoints per request: 4" for every Claude and Nova model of the supported-models table
  // (https://docs.aws.amazon.com/bedrock/latest/userguide/prompt-caching.html). SDK CachePointBlock: `type: "default"`
  // (CachePointType), a content block of its own that caches what comes before it, so never a message's first block.
  const points = carriers({ system: request.system, messages }, "cachePoint");
  if (points.length > 4)
    out.push({
      rule: "bedrock-converse/cache-point-limit",
      detail: `${points.length} cache checkpoints in one request: at most 4`,
    });
  for (const { path, carrier } of points) {
    if (!isObj(carrier.cachePoint) || carrier.cachePoint.type !== "default")
      out.push({
        rule: "bedrock-converse/cache-point",
        detail: `${path}.cachePoint: expected { type: "default" }, got ${show(carrier.cachePoint)}`,
      });
    if (Object.keys(carrier).length !== 1)
      out.push({ rule: "bedrock-converse/cache-point", detail: `${path}: a cachePoint is a content block of its own` });
    if (/^messages\.\d+\.content\.0$/.test(path))
      out.push({ rule: "bedrock-converse/cache-point", detail: `${path}: a cachePoint follows the content it caches` });
  }
  if (request.system !== undefined && !Array.isArray(request.system))
    // SDK ConverseRequest.system: `SystemContentBlock[] | undefined`.
    out.push({
      rule: "bedrock-converse/system",
      detail: `system must be an array of SystemContentBlock, got ${show(request.system)}`,
    });
  return out;
}
