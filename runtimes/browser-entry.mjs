// The conformance checks in a browser page (bundled with the package for Chromium).
import * as root from "../dist/index.js";
import * as expert from "../dist/expert.js";
import * as summaryKit from "../dist/summary-kit.js";

// The package's entries as one object: the conformance checks read its root and its subpaths.
const lib = { ...root, ...expert, ...summaryKit };
import { conformance } from "./conformance.mjs";

globalThis.runConformance = () => conformance(lib);
