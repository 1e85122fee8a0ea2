// Stands in for @langchain/openai (not a dependency of this project) when LangChain's
// `initChatModel("openai:…")` imports it: a `ChatOpenAI` that answers offline and keeps what it
// received in `globalThis.langchainOffline`. The summarizer (`gpt-4.1-mini`) answers with a
// numbered summary; the agent calls `lookup` for each question, then answers at length.
import { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { AIMessage } from "@langchain/core/messages";

const seen = (globalThis.langchainOffline ??= { requests: [], summarizerInputs: [] });

export class ChatOpenAI extends BaseChatModel {
  constructor(fields = {}) {
    super(fields);
    this.model = fields.model ?? fields.modelName ?? "gpt-4.1";
  }

  _llmType() {
    return "openai-offline";
  }

  bindTools() {
    return this;
  }

  async _generate(messages) {
    const plain = messages.map((message) => ({ role: message.getType(), content: message.content, tool_calls: message.tool_calls, tool_call_id: message.tool_call_id }));
    let reply;
    if (this.model === "gpt-4.1-mini") {
      seen.summarizerInputs.push(JSON.stringify(plain).length);
      reply = new AIMessage(`Summary ${seen.summarizerInputs.length}: the researcher looked facts up.`);
    } else {
      seen.requests.push(messages.map((message) => message));
      const n = seen.requests.length;
      reply = messages.at(-1)?.getType() === "tool" ? new AIMessage(`Answer ${n}: ${"finding ".repeat(7_500)}`) : new AIMessage({ content: "", tool_calls: [{ id: `call_${n}`, name: "lookup", args: { q: `question ${n}` }, type: "tool_call" }] });
    }
    return { generations: [{ text: typeof reply.content === "string" ? reply.content : "", message: reply }] };
  }
}
