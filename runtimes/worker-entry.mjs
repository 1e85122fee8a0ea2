// The conformance checks as a Cloudflare Worker (bundled with the package for workerd).
import * as root from "../dist/index.js";
import * as expert from "../dist/expert.js";
import * as summaryKit from "../dist/summary-kit.js";

// The package's entries as one object: the conformance checks read its root and its subpaths.
const lib = { ...root, ...expert, ...summaryKit };
import { conformance } from "./conformance.mjs";

export default {
  async fetch() {
    return new Response(JSON.stringify(await conformance(lib)), { headers: { "content-type": "application/json" } });
  },
};
