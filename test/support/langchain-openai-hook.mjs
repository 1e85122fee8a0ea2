// A module resolution hook (`module.register`): `@langchain/openai` resolves to the offline stand-in beside it.
const offline = new URL("./langchain-openai-offline.mjs", import.meta.url).href;

export async function resolve(specifier, context, next) {
  return specifier === "@langchain/openai" ? { url: offline, shortCircuit: true } : next(specifier, context);
}
