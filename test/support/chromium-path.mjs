// Where the headless-browser runs find Chromium: CHROMIUM_PATH when set, else where Debian and
// Ubuntu put it. Shared by the HTML-report test and `npm run test:runtimes`.
import { existsSync } from "node:fs";

const debianPaths = ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/snap/bin/chromium"];

/** The Chromium executable, or undefined when none is installed. */
export function chromiumPath() {
  const configured = process.env["CHROMIUM_PATH"];
  if (configured) return existsSync(configured) ? configured : undefined;
  return debianPaths.find((path) => existsSync(path));
}

/** What to do when it is missing, for an error message. */
export const chromiumHint = "install it (apt-get install -y chromium) or set CHROMIUM_PATH to its executable";
