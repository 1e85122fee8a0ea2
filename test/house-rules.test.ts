// House rules read from the syntax tree of src/: no function takes more than four parameters (more
// belong in a named object), and no value is cast to `never` (a cast that silences every check).
import { readFileSync, readdirSync } from "node:fs";
import { join, relative } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const src = new URL("../src/", import.meta.url).pathname;
const MAX_PARAMETERS = 4;

function sourceFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    return entry.isDirectory() ? sourceFiles(path) : entry.name.endsWith(".ts") ? [path] : [];
  });
}

/** True for `never`, and for `never[]`: a cast to either silences every check on the value. */
function isNever(type: ts.TypeNode): boolean {
  return type.kind === ts.SyntaxKind.NeverKeyword || (ts.isArrayTypeNode(type) && isNever(type.elementType));
}

/** Where `code` breaks a rule, as `name:line what`. */
function breaches(name: string, code: string): string[] {
  const file = ts.createSourceFile(name, code, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const at = (node: ts.Node) => `${name}:${file.getLineAndCharacterOfPosition(node.getStart(file)).line + 1}`;
  const visit = (node: ts.Node): void => {
    // Functions, methods, arrows, constructors, accessors, and the signatures of function types.
    if (ts.isFunctionLike(node) && node.parameters.length > MAX_PARAMETERS)
      found.push(`${at(node)} ${node.parameters.length} parameters`);
    if ((ts.isAsExpression(node) || ts.isTypeAssertionExpression(node)) && isNever(node.type))
      found.push(`${at(node)} as never`);
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

describe("house rules", () => {
  it("no function in src/ declares more than four parameters, and nothing is cast to never", () => {
    const found = sourceFiles(src).flatMap((path) => breaches(relative(src, path), readFileSync(path, "utf8")));
    expect(found).toEqual([]);
  });

  it.each([
    ["function five(a: number, b: number, c: number, d: number, e: number) {}", ["x.ts:1 5 parameters"]],
    ["const arrow = (a: 1, b: 2, c: 3, d: 4, e: 5) => a;", ["x.ts:1 5 parameters"]],
    ["class C {\n  method(a: 1, b: 2, c: 3, d: 4, e: 5) {}\n}", ["x.ts:2 5 parameters"]],
    ["type F = (a: 1, b: 2, c: 3, d: 4, e: 5) => void;", ["x.ts:1 5 parameters"]],
    ["const value = {} as never;\nconst list = [] as never[];", ["x.ts:1 as never", "x.ts:2 as never"]],
    ["function four(a: 1, b: 2, c: 3, d: 4) {}\nconst text = `as never`; // as never\nconst n = 1 as number;", []],
  ])("the check itself: %s", (code, expected) => {
    expect(breaches("x.ts", code)).toEqual(expected);
  });
});
