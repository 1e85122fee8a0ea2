// The conformance checks in a browser page (bundled with the package for Chromium).
import * as lib from "../dist/index.js";
import { conformance } from "./conformance.mjs";

globalThis.runConformance = () => conformance(lib);
