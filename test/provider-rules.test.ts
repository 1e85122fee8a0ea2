// The provider request checkers: for each rule, a request the provider accepts and one it refuses, modelled on the providers' own
// examples; then the bodies the AI SDK's provider packages really send, checked with them.
import type { ModelMessage } from "ai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { aiSdkWireViolations, wireBodies } from "./support/provider-rules/ai-sdk-wire.js";
import {
  type ProviderFormat,
  type ProviderRequest,
  assertProviderAccepts,
  genkitToGemini,
  providerViolations,
} from "./support/provider-rules/index.js";

const rules = (format: ProviderFormat, request: ProviderRequest) =>
  providerViolations(format, request).map((v) => v.rule);
const accepts = (format: ProviderFormat, request: ProviderRequest) =>
  expect(providerViolations(format, request)).toEqual([]);
const refuses = (format: ProviderFormat, request: ProviderRequest, rule: string) =>
  expect(rules(format, request)).toContain(rule);

const PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8/5+hHgAHggJ/PchI7wAAAABJRU5ErkJggg==";

describe("anthropic", () => {
  const F = "anthropic";
  const weatherUse = {
    role: "assistant",
    content: [
      { type: "text", text: "I'll check." },
      { type: "tool_use", id: "toolu_01", name: "get_weather", input: { location: "San Francisco, CA" } },
    ],
  };
  const weatherResult = {
    role: "user",
    content: [{ type: "tool_result", tool_use_id: "toolu_01", content: "15 degrees" }],
  };
  const ask = { role: "user", content: "What's the weather like in San Francisco?" };

  it("accepts the documented multi-turn example and a system prompt", () => {
    accepts(F, {
      system: "You are a helpful assistant.",
      messages: [
        { role: "user", content: "Hello there." },
        { role: "assistant", content: "Hi, I'm Claude. How can I help you?" },
        { role: "user", content: "Can you explain LLMs in plain English?" },
      ],
    });
  });

  it("role: system in messages is refused unless the model takes mid-conversation system messages, and then only after a user turn", () => {
    const messages = [
      { role: "user", content: "Hi" },
      { role: "system", content: "Answer in French." },
    ];
    refuses(F, { messages }, "anthropic/role");
    accepts(F, { messages, midConversationSystem: true });
    refuses(
      F,
      {
        messages: [
          { role: "system", content: "x" },
          { role: "user", content: "Hi" },
        ],
        midConversationSystem: true,
      },
      "anthropic/system-placement",
    );
    refuses(F, { messages: [{ role: "tool", content: "x" }] }, "anthropic/role");
  });

  it("consecutive same-role messages are combined, not refused", () => {
    accepts(F, {
      messages: [
        { role: "user", content: "Hello" },
        { role: "user", content: "Are you there?" },
      ],
    });
  });

  it("every message but a final assistant one needs content", () => {
    accepts(F, { messages: [ask, { role: "assistant", content: "" }] });
    refuses(
      F,
      {
        messages: [
          { role: "user", content: [] },
          { role: "assistant", content: "x" },
        ],
      },
      "anthropic/non-empty-content",
    );
    refuses(F, { messages: [{ role: "user", content: "" }] }, "anthropic/non-empty-content");
  });

  it("text blocks must hold non-whitespace text", () => {
    refuses(F, { messages: [{ role: "user", content: [{ type: "text", text: "" }] }] }, "anthropic/text-non-empty");
    refuses(F, { messages: [{ role: "user", content: [{ type: "text", text: "  \n" }] }] }, "anthropic/text-non-empty");
    refuses(
      F,
      {
        messages: [
          ask,
          weatherUse,
          {
            role: "user",
            content: [{ type: "tool_result", tool_use_id: "toolu_01", content: [{ type: "text", text: " " }] }],
          },
        ],
      },
      "anthropic/text-non-empty",
    );
  });

  it("a tool_use is answered by a tool_result in the next user turn", () => {
    accepts(F, { messages: [ask, weatherUse, weatherResult] });
    refuses(F, { messages: [ask, weatherUse, { role: "user", content: "never mind" }] }, "anthropic/tool-use-answered");
    const two = {
      role: "assistant",
      content: [...weatherUse.content, { type: "tool_use", id: "toolu_02", name: "get_time", input: {} }],
    };
    refuses(F, { messages: [ask, two, weatherResult] }, "anthropic/tool-use-answered");
    // A following assistant message is combined with the tool_use turn, so the results still come next.
    accepts(F, { messages: [ask, weatherUse, { role: "assistant", content: "One moment." }, weatherResult] });
  });

  it("tool_result blocks come first in that user turn", () => {
    accepts(F, {
      messages: [
        ask,
        weatherUse,
        { role: "user", content: [weatherResult.content[0], { type: "text", text: "What should I do next?" }] },
      ],
    });
    // The docs' own 400 example: text before the tool_result.
    refuses(
      F,
      {
        messages: [
          ask,
          weatherUse,
          { role: "user", content: [{ type: "text", text: "Here are the results:" }, weatherResult.content[0]] },
        ],
      },
      "anthropic/tool-results-first",
    );
  });

  it("a tool_result refers to a tool_use of the previous assistant turn", () => {
    refuses(
      F,
      { messages: [ask, { role: "assistant", content: "ok" }, weatherResult] },
      "anthropic/tool-result-has-use",
    );
    refuses(F, { messages: [weatherResult] }, "anthropic/tool-result-has-use");
  });

  it("tool_result content holds text, image, document or search_result blocks, images of the four media types", () => {
    const image = (media_type: string) => ({ type: "image", source: { type: "base64", media_type, data: PNG } });
    accepts(F, {
      messages: [
        ask,
        weatherUse,
        {
          role: "user",
          content: [
            {
              type: "tool_result",
              tool_use_id: "toolu_01",
              content: [{ type: "text", text: "map" }, image("image/png")],
            },
          ],
        },
      ],
    });
    refuses(
      F,
      {
        messages: [
          ask,
          weatherUse,
          { role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_01", content: [image("image/bmp")] }] },
        ],
      },
      "anthropic/image",
    );
    refuses(
      F,
      {
        messages: [
          ask,
          weatherUse,
          {
            role: "user",
            content: [
              {
                type: "tool_result",
                tool_use_id: "toolu_01",
                content: [{ type: "tool_use", id: "x", name: "y", input: {} }],
              },
            ],
          },
        ],
      },
      "anthropic/tool-result-content",
    );
  });

  describe("thinking", () => {
    const thinking = { type: "thinking", thinking: "Let me check the weather.", signature: "EqQBCgIYAhIM" };
    const thinkingUse = { role: "assistant", content: [thinking, weatherUse.content[1]] };

    it("an assistant message with thinking blocks starts with one, and does not end with one", () => {
      accepts(F, { messages: [ask, thinkingUse, weatherResult] });
      accepts(F, {
        messages: [
          ask,
          {
            role: "assistant",
            content: [
              { type: "redacted_thinking", data: "EmwKAhgB" },
              { type: "text", text: "Sunny." },
            ],
          },
          { role: "user", content: "Thanks" },
        ],
      });
      refuses(
        F,
        {
          messages: [
            ask,
            { role: "assistant", content: [{ type: "text", text: "x" }, thinking, { type: "text", text: "y" }] },
            { role: "user", content: "?" },
          ],
        },
        "anthropic/thinking-first",
      );
      refuses(F, { messages: [ask, { role: "assistant", content: [thinking] }] }, "anthropic/thinking-not-last");
    });

    it("thinking blocks keep their signature, redacted ones their data", () => {
      refuses(
        F,
        {
          messages: [
            ask,
            {
              role: "assistant",
              content: [
                { type: "thinking", thinking: "x" },
                { type: "text", text: "y" },
              ],
            },
          ],
        },
        "anthropic/thinking-fields",
      );
      refuses(
        F,
        {
          messages: [ask, { role: "assistant", content: [{ type: "redacted_thinking" }, { type: "text", text: "y" }] }],
        },
        "anthropic/thinking-fields",
      );
    });

    it("with thinking enabled, the assistant turn of the last tool cycle starts with its thinking block", () => {
      accepts(F, { messages: [ask, thinkingUse, weatherResult], thinking: true });
      refuses(F, { messages: [ask, weatherUse, weatherResult], thinking: true }, "anthropic/thinking-final-assistant");
      // Earlier turns may have lost theirs.
      accepts(F, {
        messages: [
          ask,
          weatherUse,
          weatherResult,
          { role: "assistant", content: "Sunny." },
          ask,
          thinkingUse,
          weatherResult,
        ],
        thinking: true,
      });
    });

    it("with thinking disabled, a final assistant message carries no thinking", () => {
      refuses(
        F,
        { messages: [ask, { role: "assistant", content: [thinking, { type: "text", text: "x" }] }], thinking: false },
        "anthropic/thinking-disabled-final",
      );
      accepts(F, {
        messages: [
          ask,
          { role: "assistant", content: [thinking, { type: "text", text: "x" }] },
          { role: "user", content: "ok" },
        ],
        thinking: false,
      });
    });
  });

  it("a compaction block is the first block of the conversation", () => {
    const compaction = { type: "compaction", content: "Summary of the earlier turns." };
    accepts(F, { messages: [{ role: "user", content: [compaction, { type: "text", text: "Go on." }] }] });
    refuses(
      F,
      { messages: [ask, { role: "assistant", content: "x" }, { role: "user", content: [compaction] }] },
      "anthropic/compaction-placement",
    );
    refuses(
      F,
      { messages: [{ role: "user", content: [{ type: "text", text: "x" }, compaction] }] },
      "anthropic/compaction-placement",
    );
  });

  it("system is a string or text blocks", () => {
    accepts(F, { system: [{ type: "text", text: "Be brief." }], messages: [ask] });
    refuses(F, { system: [{ type: "image" }], messages: [ask] }, "anthropic/system");
  });
});

describe("openai-chat", () => {
  const F = "openai-chat";
  const call = {
    role: "assistant",
    content: null,
    tool_calls: [
      { id: "call_1", type: "function", function: { name: "get_weather", arguments: '{"location":"Paris"}' } },
    ],
  };
  const answer = { role: "tool", tool_call_id: "call_1", content: "15 degrees" };
  const ask = { role: "user", content: "What's the weather in Paris?" };

  it("accepts the function-calling example, with system and developer messages", () => {
    accepts(F, {
      messages: [
        { role: "developer", content: "Be brief." },
        { role: "system", content: "x" },
        ask,
        call,
        answer,
        { role: "assistant", content: "It is 15 degrees." },
      ],
    });
  });

  it("roles are developer, system, user, assistant, tool, function", () => {
    refuses(F, { messages: [{ role: "model", content: "x" }] }, "openai-chat/role");
  });

  it("a tool message answers a preceding assistant message with tool_calls", () => {
    refuses(F, { messages: [ask, answer] }, "openai-chat/tool-follows-tool-calls");
    refuses(
      F,
      { messages: [ask, call, answer, { role: "user", content: "and?" }, answer] },
      "openai-chat/tool-follows-tool-calls",
    );
    refuses(F, { messages: [ask, call, { ...answer, tool_call_id: "call_9" }] }, "openai-chat/tool-call-id");
  });

  it("every tool_call_id is answered before the next non-tool message", () => {
    const two = {
      ...call,
      tool_calls: [
        ...call.tool_calls,
        { id: "call_2", type: "function", function: { name: "get_weather", arguments: "{}" } },
      ],
    };
    accepts(F, { messages: [ask, two, answer, { ...answer, tool_call_id: "call_2" }] });
    refuses(F, { messages: [ask, two, answer, { role: "user", content: "?" }] }, "openai-chat/tool-calls-answered");
    refuses(F, { messages: [ask, call] }, "openai-chat/tool-calls-answered");
  });

  it("content: tool, system and developer hold text only; assistant content may be null only with tool_calls", () => {
    refuses(
      F,
      {
        messages: [
          ask,
          call,
          { ...answer, content: [{ type: "image_url", image_url: { url: "data:image/png;base64,x" } }] },
        ],
      },
      "openai-chat/content",
    );
    accepts(F, {
      messages: [
        {
          role: "user",
          content: [
            { type: "text", text: "look" },
            { type: "image_url", image_url: { url: "https://example.com/a.png" } },
          ],
        },
      ],
    });
    refuses(F, { messages: [ask, { role: "assistant", content: null }] }, "openai-chat/content");
    refuses(
      F,
      {
        messages: [
          ask,
          { ...call, tool_calls: [{ id: "call_1", type: "function", function: { name: "f", arguments: {} } }] },
          answer,
        ],
      },
      "openai-chat/tool-call-shape",
    );
  });
});

describe("openai-responses", () => {
  const F = "openai-responses";
  const ask = { role: "user", content: "What's the weather in Paris?" };
  const call = { type: "function_call", call_id: "call_1", name: "get_weather", arguments: '{"location":"Paris"}' };
  const output = { type: "function_call_output", call_id: "call_1", output: "15 degrees" };
  const reasoning = { type: "reasoning", id: "rs_1", summary: [] };

  it("accepts the function-calling round trip, with reasoning before the call", () => {
    accepts(F, {
      messages: [
        { role: "developer", content: "Be brief." },
        ask,
        reasoning,
        call,
        output,
        { role: "assistant", content: "15 degrees." },
      ],
    });
  });

  it("message roles are user, assistant, system, developer", () => {
    refuses(F, { messages: [{ role: "tool", content: "x" }] }, "openai-responses/role");
  });

  it("a function_call_output needs its function_call, and a function_call its output", () => {
    refuses(F, { messages: [ask, output] }, "openai-responses/output-has-call");
    refuses(F, { messages: [ask, call] }, "openai-responses/call-has-output");
    refuses(F, { messages: [ask, output, call] }, "openai-responses/output-has-call");
  });

  it("a reasoning item is followed by the item it belongs to", () => {
    accepts(F, {
      messages: [
        ask,
        reasoning,
        { type: "message", role: "assistant", content: [{ type: "output_text", text: "Hi" }] },
      ],
    });
    refuses(F, { messages: [ask, reasoning] }, "openai-responses/reasoning-followed");
    refuses(
      F,
      { messages: [ask, reasoning, { role: "user", content: "next" }] },
      "openai-responses/reasoning-followed",
    );
  });

  it("a compaction item carries its encrypted content", () => {
    accepts(F, { messages: [{ type: "compaction", encrypted_content: "gAAAAB" }, ask] });
    refuses(F, { messages: [{ type: "compaction" }, ask] }, "openai-responses/compaction");
  });
});

describe("google-genai", () => {
  const F = "google-genai";
  const ask = { role: "user", parts: [{ text: "What's the weather in Boston?" }] };
  const call = { role: "model", parts: [{ functionCall: { name: "get_weather", args: { location: "Boston" } } }] };
  const response = {
    role: "user",
    parts: [{ functionResponse: { name: "get_weather", response: { temperature: 15 } } }],
  };

  it("accepts the function-calling example with a system instruction", () => {
    accepts(F, {
      system: { parts: [{ text: "You are a weather bot." }] },
      messages: [ask, call, response, { role: "model", parts: [{ text: "15 degrees." }] }],
    });
  });

  it("roles are user and model", () => {
    refuses(F, { messages: [{ role: "assistant", parts: [{ text: "x" }] }] }, "google-genai/role");
    refuses(F, { messages: [{ role: "system", parts: [{ text: "x" }] }] }, "google-genai/role");
  });

  it("parts are never empty and each part carries data", () => {
    refuses(F, { messages: [ask, { role: "model", parts: [] }] }, "google-genai/parts-non-empty");
    refuses(F, { messages: [{ role: "user", parts: [{}] }] }, "google-genai/part-data");
  });

  it("the function response turn comes right after the function call turn, with as many parts", () => {
    refuses(F, { messages: [ask, response] }, "google-genai/response-after-call");
    refuses(F, { messages: [ask, call, ask, response] }, "google-genai/response-after-call");
    const two = { role: "model", parts: [...call.parts, { functionCall: { name: "get_time", args: {} } }] };
    refuses(F, { messages: [ask, two, response] }, "google-genai/response-count");
    accepts(F, {
      messages: [
        ask,
        two,
        { role: "user", parts: [...response.parts, { functionResponse: { name: "get_time", response: {} } }] },
      ],
    });
    refuses(F, { messages: [ask, call, ask] }, "google-genai/response-count");
  });

  it("the function call turn comes after a user turn or a function response turn", () => {
    refuses(F, { messages: [call, response] }, "google-genai/call-after-user");
    refuses(
      F,
      { messages: [ask, { role: "model", parts: [{ text: "x" }] }, call, response] },
      "google-genai/call-after-user",
    );
  });

  it("Gemini 3: the first functionCall of each step of the current turn carries its thought signature", () => {
    const signed = {
      role: "model",
      parts: [
        { functionCall: { name: "get_weather", args: {} }, thoughtSignature: "sig_a" },
        { functionCall: { name: "get_time", args: {} } },
      ],
    };
    const twoResponses = {
      role: "user",
      parts: [...response.parts, { functionResponse: { name: "get_time", response: {} } }],
    };
    accepts(F, { messages: [ask, signed, twoResponses], gemini3: true });
    refuses(F, { messages: [ask, call, response], gemini3: true }, "google-genai/thought-signature");
    // Only the current turn is checked: an unsigned call before the last user text passes.
    accepts(F, { messages: [ask, call, response, { role: "model", parts: [{ text: "15." }] }, ask], gemini3: true });
    accepts(F, { messages: [ask, call, response] });
  });
});

describe("bedrock-converse", () => {
  const F = "bedrock-converse";
  const ask = { role: "user", content: [{ text: "What's the weather in Seattle?" }] };
  const use = {
    role: "assistant",
    content: [{ toolUse: { toolUseId: "tooluse_1", name: "get_weather", input: { city: "Seattle" } } }],
  };
  const result = {
    role: "user",
    content: [{ toolResult: { toolUseId: "tooluse_1", content: [{ json: { temperature: 15 } }] } }],
  };

  it("accepts the tool-use example with a system prompt", () => {
    accepts(F, {
      system: [{ text: "You are a weather bot." }],
      messages: [ask, use, result, { role: "assistant", content: [{ text: "15 degrees." }] }],
    });
  });

  it("roles are user and assistant; the conversation starts with user and alternates", () => {
    refuses(F, { messages: [{ role: "system", content: [{ text: "x" }] }, ask] }, "bedrock-converse/role");
    refuses(
      F,
      { messages: [{ role: "assistant", content: [{ text: "Hi" }] }, ask] },
      "bedrock-converse/starts-with-user",
    );
    refuses(F, { messages: [ask, ask] }, "bedrock-converse/alternate");
  });

  it("content is not empty and text is not blank", () => {
    refuses(F, { messages: [{ role: "user", content: [] }] }, "bedrock-converse/content-non-empty");
    refuses(F, { messages: [{ role: "user", content: [{ text: " " }] }] }, "bedrock-converse/text-not-blank");
  });

  it("toolResult blocks answer the toolUse blocks of the previous turn, all of them", () => {
    refuses(
      F,
      { messages: [ask, { role: "assistant", content: [{ text: "x" }] }, result] },
      "bedrock-converse/tool-result-count",
    );
    refuses(
      F,
      { messages: [ask, use, { role: "user", content: [{ text: "never mind" }] }] },
      "bedrock-converse/tool-use-answered",
    );
    refuses(
      F,
      {
        messages: [
          ask,
          use,
          { role: "user", content: [{ toolResult: { toolUseId: "tooluse_9", content: [{ text: "x" }] } }] },
        ],
      },
      "bedrock-converse/tool-result-has-use",
    );
  });

  it("an error toolResult has content; images and documents only in user messages, documents with text", () => {
    refuses(
      F,
      {
        messages: [
          ask,
          use,
          { role: "user", content: [{ toolResult: { toolUseId: "tooluse_1", status: "error", content: [] } }] },
        ],
      },
      "bedrock-converse/tool-result-content",
    );
    refuses(
      F,
      { messages: [ask, { role: "assistant", content: [{ image: { format: "png", source: { bytes: PNG } } }] }] },
      "bedrock-converse/media-in-user",
    );
    const doc = { document: { format: "txt", name: "notes", source: { bytes: "aGk=" } } };
    refuses(F, { messages: [{ role: "user", content: [doc] }] }, "bedrock-converse/document-needs-text");
    accepts(F, { messages: [{ role: "user", content: [doc, { text: "Summarize the notes." }] }] });
  });
});

describe("genkit-gemini", () => {
  const F = "genkit-gemini";
  const ask = { role: "user", content: [{ text: "What's the weather?" }] };
  const call = { role: "model", content: [{ toolRequest: { name: "weather", ref: "0", input: { city: "Paris" } } }] };
  const answer = { role: "tool", content: [{ toolResponse: { name: "weather", ref: "0", output: "15 degrees" } }] };

  it("accepts one system message and a tool round trip; the tool message becomes a user turn", () => {
    accepts(F, { messages: [{ role: "system", content: [{ text: "Be brief." }] }, ask, call, answer] });
    expect(genkitToGemini([ask, call, answer]).contents.map((c) => c.role)).toEqual(["user", "model", "user"]);
  });

  it("a second system message is refused by the plugin", () => {
    refuses(
      F,
      { messages: [{ role: "system", content: [{ text: "a" }] }, ask, { role: "system", content: [{ text: "b" }] }] },
      "genkit-gemini/single-system",
    );
  });

  it("no messages, a tool request without input, a tool response without output, an unknown part", () => {
    refuses(F, { messages: [] }, "genkit-gemini/no-messages");
    refuses(
      F,
      { messages: [ask, { role: "model", content: [{ toolRequest: { name: "weather", ref: "0" } }] }, answer] },
      "genkit-gemini/tool-request-input",
    );
    refuses(
      F,
      { messages: [ask, call, { role: "tool", content: [{ toolResponse: { name: "weather", ref: "0" } }] }] },
      "genkit-gemini/tool-response-output",
    );
    refuses(F, { messages: [{ role: "user", content: [{ data: { a: 1 } }] }] }, "genkit-gemini/part");
  });

  it("the Gemini rules apply to the converted request", () => {
    refuses(F, { messages: [ask, answer] }, "google-genai/response-after-call");
    refuses(F, { messages: [{ role: "user", content: [] }] }, "google-genai/parts-non-empty");
  });
});

describe("assertProviderAccepts", () => {
  it("throws listing the violations", () => {
    expect(() =>
      assertProviderAccepts("openai-chat", { messages: [{ role: "tool", tool_call_id: "x", content: "y" }] }),
    ).toThrow(/openai-chat\/tool-follows-tool-calls/);
    expect(() => assertProviderAccepts("anthropic", { messages: [{ role: "user", content: "hi" }] })).not.toThrow();
  });
});

describe("AI SDK wire bodies", () => {
  const conversation: ModelMessage[] = [
    { role: "user", content: "Take a screenshot of the page." },
    {
      role: "assistant",
      content: [
        { type: "text", text: "Taking it." },
        { type: "tool-call", toolCallId: "call_1", toolName: "screenshot", input: { page: 1 } },
      ],
    },
    {
      role: "tool",
      content: [
        {
          type: "tool-result",
          toolCallId: "call_1",
          toolName: "screenshot",
          output: {
            type: "content",
            value: [
              { type: "text", text: "Here it is." },
              { type: "image-data", data: PNG, mediaType: "image/png" },
            ],
          },
        },
      ],
    },
    { role: "user", content: "Describe it." },
  ];

  it("records one body per provider and every provider accepts it", async () => {
    const bodies = await wireBodies(conversation, { system: "Be brief." });
    for (const result of Object.values(bodies)) {
      expect(result.error).toBeUndefined();
      expect(result.body).toBeDefined();
    }
    expect(await aiSdkWireViolations(conversation, { system: "Be brief." })).toEqual({
      anthropic: [],
      "openai-chat": [],
      "openai-responses": [],
      "google-genai": [],
      "bedrock-converse": [],
    });
  });

  // The turns below are made to be what the AI SDK's providers warn about (a Responses model
  // handed another provider's reasoning, a Gemini 3 call without its signature): the tests check
  // the bodies sent, so the warnings (the AI SDK's switch, AI_SDK_LOG_WARNINGS) stay out of the output.
  const aiSdk = globalThis as { AI_SDK_LOG_WARNINGS?: unknown };
  const logWarnings = aiSdk.AI_SDK_LOG_WARNINGS;
  beforeAll(() => {
    aiSdk.AI_SDK_LOG_WARNINGS = false;
  });
  afterAll(() => {
    aiSdk.AI_SDK_LOG_WARNINGS = logWarnings;
  });

  const withReasoning: ModelMessage[] = [
    { role: "user", content: "Weather in Paris?" },
    {
      role: "assistant",
      content: [
        {
          type: "reasoning",
          text: "I need the tool.",
          providerOptions: {
            anthropic: { signature: "sig_a" },
            google: { thoughtSignature: "ts_r" },
            bedrock: { signature: "sig_b" },
          },
        },
        {
          type: "tool-call",
          toolCallId: "call_1",
          toolName: "weather",
          input: { city: "Paris" },
          providerOptions: { google: { thoughtSignature: "ts_c" } },
        },
      ],
    },
    {
      role: "tool",
      content: [
        {
          type: "tool-result",
          toolCallId: "call_1",
          toolName: "weather",
          output: { type: "text", value: "15 degrees" },
        },
      ],
    },
  ];

  it("reasoning with its signatures, thinking enabled on Anthropic and a Gemini 3 model: accepted", async () => {
    const found = await aiSdkWireViolations(withReasoning, {
      providerOptions: { anthropic: { thinking: { type: "enabled", budgetTokens: 1024 } } },
      models: { "google-genai": "gemini-3-pro-preview" },
    });
    expect(found).toEqual({
      anthropic: [],
      "openai-chat": [],
      "openai-responses": [],
      "google-genai": [],
      "bedrock-converse": [],
    });
  });

  it("the same turn without its reasoning: refused by Anthropic with thinking on; for Gemini 3 the provider sends the skip sentinel", async () => {
    const stripped: ModelMessage[] = [
      withReasoning[0]!,
      {
        role: "assistant",
        content: [{ type: "tool-call", toolCallId: "call_1", toolName: "weather", input: { city: "Paris" } }],
      },
      withReasoning[2]!,
    ];
    const options = {
      providerOptions: { anthropic: { thinking: { type: "enabled", budgetTokens: 1024 } } },
      models: { "google-genai": "gemini-3-pro-preview" },
    };
    const found = await aiSdkWireViolations(stripped, options);
    expect(found.anthropic.map((v) => v.rule)).toContain("anthropic/thinking-final-assistant");
    expect(found["google-genai"]).toEqual([]);
    const google = (await wireBodies(stripped, options))["google-genai"].body as {
      contents: { parts: { thoughtSignature?: string }[] }[];
    };
    expect(google.contents[1]!.parts[0]!.thoughtSignature).toBe("skip_thought_signature_validator");
    // The checker itself refuses the unsigned call on a Gemini 3 model.
    const unsigned = google.contents.map((c) => ({ ...c, parts: c.parts.map(({ thoughtSignature: _, ...p }) => p) }));
    expect(providerViolations("google-genai", { messages: unsigned, gemini3: true }).map((v) => v.rule)).toContain(
      "google-genai/thought-signature",
    );
  });

  it("a tool result with no call is refused by every provider, or fails to convert", async () => {
    const bad: ModelMessage[] = [
      { role: "user", content: "Hi" },
      {
        role: "tool",
        content: [
          {
            type: "tool-result",
            toolCallId: "call_missing",
            toolName: "screenshot",
            output: { type: "text", value: "x" },
          },
        ],
      },
      { role: "user", content: "Again" },
    ];
    const found = await aiSdkWireViolations(bad);
    for (const [format, violations] of Object.entries(found)) expect(violations.length, format).toBeGreaterThan(0);
  });
});
