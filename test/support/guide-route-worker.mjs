// One Node process serving the deployment guide's chat route (its code block, compiled to
// `route`): the model ids of the guide resolve through the AI SDK's default provider, here an
// OpenAI-compatible server on 127.0.0.1. Handles each request body of `requests` (a JSON file) in
// order, one `POST` each, and prints what each answered as a JSON line.
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";

const [route, baseURL, requests] = process.argv.slice(2);
const provider = createOpenAICompatible({ name: "stub", baseURL, apiKey: "offline" });
globalThis.AI_SDK_DEFAULT_PROVIDER = { languageModel: (id) => provider.chatModel(id) };
const { POST } = await import(pathToFileURL(route).href);
const answers = [];
for (const body of JSON.parse(readFileSync(requests, "utf8"))) {
  const response = await POST(new Request("http://127.0.0.1/api/chat", { method: "POST", body: JSON.stringify(body) }));
  answers.push({ status: response.status, stream: await response.text() });
}
console.log(JSON.stringify(answers));
// The guide's client stays connected, as a route's does: this process is done.
process.exit(0);
