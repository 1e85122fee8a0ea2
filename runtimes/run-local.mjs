// Runs the conformance checks on the runtime that runs this file (Node, Bun, Deno) and prints them as JSON.
import * as lib from "../dist/index.js";
import { conformance } from "./conformance.mjs";

console.log(JSON.stringify(await conformance(lib)));
