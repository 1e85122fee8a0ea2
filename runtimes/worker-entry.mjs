// The conformance checks as a Cloudflare Worker (bundled with the package for workerd).
import * as lib from "../dist/index.js";
import { conformance } from "./conformance.mjs";

export default {
  async fetch() {
    return new Response(JSON.stringify(await conformance(lib)), { headers: { "content-type": "application/json" } });
  },
};
