// Real transcripts carry what the providers sign and bill apart: signed thinking, encrypted
// reasoning items, thought signatures, and screenshots that tools return. The converted fixtures
// are plain text; this adds those parts in each format's own shape, so a replay meets them.
import type { DialectName } from "./transcripts.js";

type Message = Record<string, unknown>;

/** About 30 KB of PNG bytes as base64 (the checkers read the media type and the data's presence, never the pixels). */
export const SCREENSHOT = `iVBORw0KGgo${"A".repeat(40_000)}`;

const signature = (n: number) => `c2lnbmF0dXJl${n}`;

/**
 * A copy of a transcript in `dialect` where every assistant turn that calls tools starts with
 * signed reasoning (or its calls carry thought signatures) and every third tool result also holds a
 * screenshot. Formats with nothing signed or no media in tool results are returned as they were.
 */
export function enrich(messages: readonly object[], dialect: DialectName): Message[] {
  let results = 0;
  let turns = 0;
  const withImage = () => ++results % 3 === 0;
  const out: Message[] = [];
  for (const original of messages as readonly Message[]) {
    const m = { ...original };
    const content = Array.isArray(m["content"]) ? (m["content"] as Message[]) : undefined;
    switch (dialect) {
      case "anthropic":
        if (m["role"] === "assistant" && content?.some((b) => b["type"] === "tool_use")) {
          m["content"] = [
            { type: "thinking", thinking: "Working out the next step.", signature: signature(++turns) },
            ...content,
          ];
        } else if (m["role"] === "user" && content?.some((b) => b["type"] === "tool_result")) {
          m["content"] = content.map((b) =>
            b["type"] === "tool_result" && withImage()
              ? {
                  ...b,
                  content: [
                    { type: "text", text: String(b["content"]) },
                    { type: "image", source: { type: "base64", media_type: "image/png", data: SCREENSHOT } },
                  ],
                }
              : b,
          );
        }
        break;
      case "ai-sdk":
        if (m["role"] === "assistant" && content?.some((p) => p["type"] === "tool-call")) {
          m["content"] = [
            {
              type: "reasoning",
              text: "Working out the next step.",
              providerOptions: { anthropic: { signature: signature(++turns) } },
            },
            ...content,
          ];
        } else if (m["role"] === "tool" && content) {
          m["content"] = content.map((p) => {
            const output = p["output"] as Message;
            return withImage()
              ? {
                  ...p,
                  output: {
                    type: "content",
                    value: [
                      { type: "text", text: String(output["value"]) },
                      { type: "image-data", data: SCREENSHOT, mediaType: "image/png" },
                    ],
                  },
                }
              : p;
          });
        }
        break;
      case "openai-responses":
        if (m["type"] === "reasoning") m["encrypted_content"] = `gAAAAB${signature(++turns)}`;
        else if ((m["type"] === "function_call_result" || m["type"] === "function_call_output") && withImage()) {
          m["output"] = [
            { type: "input_text", text: String(m["output"]) },
            { type: "input_image", image_url: `data:image/png;base64,${SCREENSHOT}` },
          ];
        }
        break;
      case "google-genai": {
        const parts = m["parts"] as Message[];
        if (m["role"] === "model" && parts.some((p) => p["functionCall"] !== undefined)) {
          // The first call of each step carries the step's signature.
          const first = parts.findIndex((p) => p["functionCall"] !== undefined);
          m["parts"] = parts.map((p, i) => (i === first ? { ...p, thoughtSignature: signature(++turns) } : p));
        } else if (m["role"] === "user" && parts.some((p) => p["functionResponse"] !== undefined)) {
          m["parts"] = parts.map((p) =>
            p["functionResponse"] !== undefined && withImage()
              ? {
                  functionResponse: {
                    ...(p["functionResponse"] as Message),
                    parts: [{ inlineData: { mimeType: "image/png", data: SCREENSHOT } }],
                  },
                }
              : p,
          );
        }
        break;
      }
      case "bedrock-converse":
        if (m["role"] === "assistant" && content?.some((b) => b["toolUse"] !== undefined)) {
          m["content"] = [
            {
              reasoningContent: {
                reasoningText: { text: "Working out the next step.", signature: signature(++turns) },
              },
            },
            ...content,
          ];
        } else if (m["role"] === "user" && content?.some((b) => b["toolResult"] !== undefined)) {
          m["content"] = content.map((b) => {
            const result = b["toolResult"] as Message | undefined;
            return result && withImage()
              ? {
                  toolResult: {
                    ...result,
                    content: [
                      ...(result["content"] as Message[]),
                      { image: { format: "png", source: { bytes: SCREENSHOT } } },
                    ],
                  },
                }
              : b;
          });
        }
        break;
      case "pi-agent":
        if (m["role"] === "assistant" && content?.some((p) => p["type"] === "toolCall")) {
          m["content"] = [
            { type: "thinking", thinking: "Working out the next step.", thinkingSignature: signature(++turns) },
            ...content,
          ];
        } else if (m["role"] === "toolResult" && content && withImage()) {
          m["content"] = [...content, { type: "image", data: SCREENSHOT, mimeType: "image/png" }];
        }
        break;
      case "genkit":
        if (m["role"] === "model" && content?.some((p) => p["toolRequest"] !== undefined)) {
          const first = content.findIndex((p) => p["toolRequest"] !== undefined);
          m["content"] = content.map((p, i) =>
            i === first ? { ...p, metadata: { thoughtSignature: signature(++turns) } } : p,
          );
        } else if (m["role"] === "tool" && content) {
          m["content"] = content.map((p) => {
            const response = p["toolResponse"] as Message | undefined;
            return response && withImage()
              ? {
                  toolResponse: {
                    ...response,
                    content: [{ media: { url: `data:image/png;base64,${SCREENSHOT}`, contentType: "image/png" } }],
                  },
                }
              : p;
          });
        }
        break;
      default:
        return messages as Message[];
    }
    out.push(m);
  }
  return out;
}
