// An OpenAI-compatible model that lives in this process on 127.0.0.1: it records every request
// and answers with whatever `respond` returns. No network, no API key.
import { createServer } from "node:http";
import { createServer as createHttp2Server } from "node:http2";

const status = Symbol("status");

/** An answer with another status than 200, and headers of its own (a provider's error). */
export function errorResponse(code, body, headers = {}) {
  return { [status]: code, body, headers };
}

/**
 * @param {(request: { path: string, body: any }) => unknown} respond - the JSON to answer with (or an `errorResponse`)
 * @param {{ http2?: boolean }} [options] - `http2`: speak cleartext HTTP/2, as the AWS SDK's Bedrock client does
 * @returns {Promise<{ baseURL: string, requests: { path: string, body: any }[], close: () => Promise<void> }>}
 */
export async function startStubModel(respond, options = {}) {
  const requests = [];
  const serve = options.http2 ? createHttp2Server : createServer;
  const server = serve((req, res) => {
    const chunks = [];
    req.on("data", (chunk) => chunks.push(chunk));
    req.on("end", () => {
      let statusCode = 200;
      let payload;
      try {
        const request = { path: req.url ?? "", body: JSON.parse(Buffer.concat(chunks).toString("utf8") || "{}") };
        requests.push(request);
        payload = respond(request);
        // Like a provider, report the request's input tokens (here bytes / 4 of its messages) unless the answer says.
        if (payload?.usage && payload.usage.prompt_tokens === undefined && Array.isArray(request.body.messages)) {
          payload.usage.prompt_tokens = Math.ceil(Buffer.byteLength(JSON.stringify(request.body.messages)) / 4);
          payload.usage.total_tokens = payload.usage.prompt_tokens + payload.usage.completion_tokens;
        }
      } catch (error) {
        statusCode = 500;
        payload = { error: { message: String(error?.message ?? error), type: "stub_error" } };
      }
      let headers = {};
      if (payload && payload[status] !== undefined) {
        statusCode = payload[status];
        headers = payload.headers;
        payload = payload.body;
      }
      const body = JSON.stringify(payload);
      res.writeHead(statusCode, {
        "content-type": "application/json",
        "content-length": Buffer.byteLength(body),
        ...headers,
      });
      res.end(body);
    });
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address();
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** A chat-completions response carrying one assistant message. */
export function chatCompletion(message, model = "stub-model") {
  return {
    id: `chatcmpl-${Math.random().toString(36).slice(2)}`,
    object: "chat.completion",
    created: Math.floor(Date.now() / 1000),
    model,
    choices: [
      {
        index: 0,
        message: { role: "assistant", content: null, ...message },
        finish_reason: message.tool_calls ? "tool_calls" : "stop",
        logprobs: null,
      },
    ],
    usage: { prompt_tokens: undefined, completion_tokens: 1, total_tokens: undefined },
  };
}
