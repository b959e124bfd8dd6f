/**
 * No import cycles in src/ and cli/, values and types alike: every .ts/.tsx (tests and test utilities
 * aside) is pre-parsed by TypeScript for its imports, re-exports and dynamic imports, each relative one
 * resolved to the file it names, and the strongly connected components of that graph (Tarjan) must
 * all be single files.
 */
import { readFileSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "..");
const SOURCE = /\.tsx?$/;
const NOT_SOURCE = /\.test\.tsx?$|\.test-util\.tsx?$|\.d\.ts$/;

// No cycle is allowed; a cycle that must stay for a while is listed here with its reason.
const ALLOWED: readonly (readonly string[])[] = [];

function sourceFiles(dir: string, out: string[] = []): string[] {
  for (const entry of readdirSync(dir)) {
    const p = path.join(dir, entry);
    if (statSync(p).isDirectory()) sourceFiles(p, out);
    else if (SOURCE.test(entry) && !NOT_SOURCE.test(entry)) out.push(p);
  }
  return out;
}

/** The project files a file imports: TypeScript's own pre-parse (imports, `import type`, re-exports, `import()`), relative specifiers resolved. */
export function importsOf(file: string, text: string, files: ReadonlySet<string>): string[] {
  const out: string[] = [];
  for (const { fileName: spec } of ts.preProcessFile(text, true, true).importedFiles) {
    if (!spec.startsWith(".")) continue;
    const target = path.resolve(path.dirname(file), spec);
    if (files.has(target)) out.push(target);
  }
  return out;
}

/** The strongly connected components of more than one file (Tarjan), each sorted, as project-relative paths. */
export function cyclesOf(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const out: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    for (let w = stack.pop()!; ; w = stack.pop()!) {
      onStack.delete(w);
      component.push(path.relative(ROOT, w).split(path.sep).join("/"));
      if (w === v) break;
    }
    if (component.length > 1) out.push(component.sort());
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return out;
}

describe("import cycles", () => {
  it("src/ and cli/ have none but the allowed ones", () => {
    const files = [...sourceFiles(path.join(ROOT, "src")), ...sourceFiles(path.join(ROOT, "cli"))];
    const set = new Set(files);
    const graph = new Map(files.map((f) => [f, importsOf(f, readFileSync(f, "utf8"), set)]));
    expect(files.length).toBeGreaterThan(100);
    const allowed = new Set(ALLOWED.map((c) => [...c].sort().join(" ")));
    expect(cyclesOf(graph).filter((c) => !allowed.has(c.join(" ")))).toEqual([]);
  });

  it("the parser sees every kind of import, and a cycle through a type import is one", () => {
    const at = (name: string) => path.join(ROOT, "src/x", name);
    const files = new Set(["a.ts", "b.ts", "c.ts", "d.tsx", "e.ts", "f.ts"].map(at));
    const a = importsOf(
      at("a.ts"),
      [
        'import type { B } from "./b.ts";',
        "import {\n  c,\n  type C,\n} from './c.ts';",
        'export { d } from "./d.tsx";',
        'const e = await import("./e.ts");',
        '// import { f } from "./f.ts";',
        'import "./kinds.css";',
        'import React from "react";',
      ].join("\n"),
      files,
    );
    expect(a).toEqual([at("b.ts"), at("c.ts"), at("d.tsx"), at("e.ts")]);
    const graph = new Map([
      [at("a.ts"), a],
      [at("b.ts"), importsOf(at("b.ts"), 'import type { A } from "./a.ts";', files)],
      [at("f.ts"), []],
    ]);
    expect(cyclesOf(graph)).toEqual([["src/x/a.ts", "src/x/b.ts"]]);
  });
});
