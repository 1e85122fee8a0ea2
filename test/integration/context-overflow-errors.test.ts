// isContextOverflowError on the errors the real SDKs throw for each provider's real error bodies.
import Anthropic from "@anthropic-ai/sdk";
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import { BedrockRuntimeClient, ConverseCommand } from "@aws-sdk/client-bedrock-runtime";
import { GoogleGenAI } from "@google/genai";
import { Agent, run, setDefaultOpenAIClient, setOpenAIAPI, setTracingDisabled } from "@openai/agents";
import { generateText } from "ai";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isContextOverflowError } from "../../src/expert.js";
import { errorResponse, startStubModel } from "../../examples/stub-model.mjs";
import { anthropicErrors, bedrockErrors, googleErrors, openaiErrors } from "../fixtures/provider-errors/index.js";

type Fixture = { status: number; body: unknown; headers?: Record<string, string> };
let answer: Fixture;
let stub: Awaited<ReturnType<typeof startStubModel>>;
let stub2: Awaited<ReturnType<typeof startStubModel>>;
beforeAll(async () => {
  const respond = () => errorResponse(answer.status, answer.body, answer.headers ?? {});
  stub = await startStubModel(respond);
  stub2 = await startStubModel(respond, { http2: true });
});
afterAll(async () => {
  await stub.close();
  await stub2.close();
});

async function caught(fixture: Fixture, call: () => Promise<unknown>): Promise<unknown> {
  answer = fixture;
  try {
    await call();
  } catch (error) {
    return error;
  }
  throw new Error("the call did not fail");
}

const base = () => stub.baseURL.replace(/\/v1$/, "");
const cases: [string, Record<string, Fixture>, (fixture: Fixture) => Promise<unknown>][] = [
  [
    "openai (chat completions)",
    openaiErrors,
    (f) =>
      caught(f, () =>
        new OpenAI({ baseURL: stub.baseURL, apiKey: "test", maxRetries: 0 }).chat.completions.create({
          model: "m",
          messages: [{ role: "user", content: "hi" }],
        }),
      ),
  ],
  [
    "openai (Responses)",
    openaiErrors,
    (f) =>
      caught(f, () =>
        new OpenAI({ baseURL: stub.baseURL, apiKey: "test", maxRetries: 0 }).responses.create({
          model: "m",
          input: "hi",
        }),
      ),
  ],
  [
    "@anthropic-ai/sdk",
    anthropicErrors,
    (f) =>
      caught(f, () =>
        new Anthropic({ baseURL: base(), apiKey: "test", maxRetries: 0 }).messages.create({
          model: "m",
          max_tokens: 10,
          messages: [{ role: "user", content: "hi" }],
        }),
      ),
  ],
  [
    "@google/genai",
    googleErrors,
    (f) =>
      caught(f, () =>
        new GoogleGenAI({ apiKey: "test", httpOptions: { baseUrl: base() } }).models.generateContent({
          model: "m",
          contents: "hi",
        }),
      ),
  ],
  [
    "@aws-sdk/client-bedrock-runtime",
    bedrockErrors,
    (f) =>
      caught(f, () =>
        new BedrockRuntimeClient({
          region: "us-east-1",
          endpoint: stub2.baseURL.replace(/\/v1$/, ""),
          credentials: { accessKeyId: "t", secretAccessKey: "t" },
          maxAttempts: 1,
        }).send(new ConverseCommand({ modelId: "m", messages: [{ role: "user", content: [{ text: "hi" }] }] })),
      ),
  ],
  [
    "ai (generateText, OpenAI-compatible provider)",
    openaiErrors,
    (f) =>
      caught(f, () =>
        generateText({
          model: createOpenAICompatible({ name: "stub", baseURL: stub.baseURL, apiKey: "test" }).chatModel("m"),
          prompt: "hi",
          maxRetries: 0,
        }),
      ),
  ],
  [
    "@openai/agents (run)",
    openaiErrors,
    (f) => {
      setTracingDisabled(true);
      setOpenAIAPI("responses");
      setDefaultOpenAIClient(new OpenAI({ baseURL: stub.baseURL, apiKey: "test", maxRetries: 0 }));
      return caught(f, () =>
        run(
          new Agent({ name: "a", instructions: "i", model: "m", modelSettings: { retry: { maxRetries: 0 } } as never }),
          "hi",
        ),
      );
    },
  ],
];

describe.each(cases)("%s", (_, fixtures, provoke) => {
  it.each(Object.entries(fixtures))("%s", async (name, fixture) => {
    const error = await provoke(fixture);
    expect(isContextOverflowError(error), String((error as Error)?.message)).toBe(
      name.toLowerCase().includes("overflow"),
    );
  });
});

describe("isContextOverflowError", () => {
  it("never throws, whatever it is given", () => {
    const hostile = new Proxy(
      {},
      {
        get: () => {
          throw new Error("no");
        },
      },
    );
    for (const value of [
      undefined,
      null,
      5,
      "text",
      Object.create(null),
      hostile,
      { cause: { cause: { message: "prompt is too long: 5 > 4" } } },
    ]) {
      expect(() => isContextOverflowError(value)).not.toThrow();
    }
    expect(
      isContextOverflowError({
        cause: { cause: { status: 400, message: "prompt is too long: 5 tokens > 4 maximum" } },
      }),
    ).toBe(true);
  });

  it("reads wording only on a provider's error response, so a tool error quoting it is no overflow", () => {
    const quoted = new Error('Tool "search" failed: the user wrote "my prompt is too long, shorten it"');
    expect(isContextOverflowError(quoted)).toBe(false);
    expect(isContextOverflowError(new Error("embedding failed: input is too long"))).toBe(false);
    expect(isContextOverflowError("prompt is too long: 5 tokens > 4 maximum")).toBe(false);
    expect(isContextOverflowError({ cause: { message: "prompt is too long: 5 tokens > 4 maximum" } })).toBe(false);
    // A provider error wrapping a tool's text in its cause is still judged by the provider's own body.
    expect(
      isContextOverflowError({ status: 400, message: "bad request", cause: new Error("prompt is too long") }),
    ).toBe(false);
  });

  it("takes codes before wording: an overflow that mentions a quota is an overflow, a rate limit that mentions the context is not", () => {
    const overflow = {
      status: 400,
      error: {
        error: { code: "context_length_exceeded", message: "Input exceeds the context window; see your quota page" },
      },
    };
    expect(isContextOverflowError(overflow)).toBe(true);
    expect(
      isContextOverflowError({
        status: 400,
        message: "prompt is too long: 300000 tokens > 200000 maximum (quota: 1M/day)",
      }),
    ).toBe(true);
    expect(isContextOverflowError({ status: 429, message: "prompt is too long for your rate limit" })).toBe(false);
    expect(
      isContextOverflowError({
        status: 400,
        error: { code: "rate_limit_exceeded", message: "maximum context length" },
      }),
    ).toBe(false);
  });
});
