// The options tables of docs/api.md, made from the TSDoc of the option interfaces in src/, so the
// page can never say a type or a default the code does not have. `npm run docs:api` rewrites
// every table between `<!-- options: Name -->` and `<!-- /options -->`; test/api-docs.test.ts
// fails when one differs from what this makes.
import { readFileSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";

const root = fileURLToPath(new URL("..", import.meta.url));
const MARKER = /<!-- options: (\w+) -->\n[\s\S]*?<!-- \/options -->/g;

/** Every interface declared in src/, by name. */
export function interfacesOf(directory = join(root, "src")) {
  const found = new Map();
  const walk = (folder) => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith(".ts")) {
        const source = ts.createSourceFile(path, readFileSync(path, "utf8"), ts.ScriptTarget.Latest, true);
        source.forEachChild((node) => {
          if (ts.isInterfaceDeclaration(node)) found.set(node.name.text, { node, source });
        });
      }
    }
  };
  walk(directory);
  return found;
}

/** The text of a TSDoc comment or tag, on one line. */
function oneLine(comment) {
  const text = typeof comment === "string" ? comment : (comment ?? []).map((part) => part.text).join("");
  return text.replace(/\s+/g, " ").trim();
}

/** The first sentence of a description: a table cell says what the option is; the section around it says why. */
function firstSentence(text) {
  const end = text.search(/\.(\s|$)/);
  return end === -1 ? text : text.slice(0, end + 1);
}

const cell = (text) => text.replace(/\|/g, "\\|");

/** The rows of one interface's table: each property with its type, default and first sentence. */
export function optionsTable(name, interfaces = interfacesOf(join(root, "src"))) {
  const declared = interfaces.get(name);
  if (declared === undefined) throw new Error(`docs/api.md names options of \`${name}\`, which src/ does not declare`);
  const { node, source } = declared;
  const rows = ["| option | type | default | what it does |", "| --- | --- | --- | --- |"];
  const inherited = (node.heritageClauses ?? []).flatMap((clause) =>
    clause.types.map((type) => type.expression.getText(source)),
  );
  for (const member of node.members) {
    if (!ts.isPropertySignature(member) && !ts.isMethodSignature(member)) continue;
    const key = member.name.getText(source);
    const docs = ts.getJSDocCommentsAndTags(member).filter(ts.isJSDoc);
    const doc = docs.at(-1);
    const defaultTag = doc?.tags?.find((tag) => tag.tagName.text === "default");
    const optional = member.questionToken !== undefined;
    const type = ts.isMethodSignature(member) ? "function" : oneLine(member.type?.getText(source) ?? "unknown");
    // A callback or a signal left out is simply not called or not listened to; anything else says its default.
    const unset = member.type !== undefined && (ts.isFunctionTypeNode(member.type) || type === "AbortSignal");
    if (optional && defaultTag === undefined && !unset)
      throw new Error(`\`${name}.${key}\` is optional and has no \`@default\` in its TSDoc`);
    const fallback = !optional ? "required" : defaultTag === undefined ? "none" : oneLine(defaultTag.comment);
    rows.push(`| \`${key}\` | \`${cell(type)}\` | ${cell(fallback)} | ${cell(firstSentence(oneLine(doc?.comment)))} |`);
  }
  if (inherited.length > 0)
    rows.push("", `Plus those of ${inherited.map((type) => `\`${type.replace(/<.*>/, "")}\``).join(" and ")}.`);
  return rows.join("\n");
}

/** docs/api.md with every options table made anew. */
export function withOptionsTables(page) {
  const interfaces = interfacesOf(join(root, "src"));
  return page.replace(
    MARKER,
    (_, name) => `<!-- options: ${name} -->\n${optionsTable(name, interfaces)}\n<!-- /options -->`,
  );
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const path = join(root, "docs", "api.md");
  writeFileSync(path, withOptionsTables(readFileSync(path, "utf8")));
}
