// The import graph of src/, read with TypeScript's own pre-processor: static imports,
// re-exports, `import type` and `import('…')` with a literal path all count, because a
// lazy or type-only import back into a module is still a circle in the design.
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

export type Graph = Map<string, string[]>;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

/** Files as paths relative to `root`; only relative imports that land on a file of the tree are edges. */
export function importGraph(root: string, texts?: Record<string, string>): Graph {
  const files = texts ? Object.keys(texts) : sourceFiles(root).map((f) => relative(root, f));
  const known = new Set(files);
  const graph: Graph = new Map();
  for (const file of files) {
    const text = texts ? texts[file]! : readFileSync(join(root, file), 'utf8');
    const { importedFiles } = ts.preProcessFile(text, true, true);
    const targets = importedFiles
      .map((i) => i.fileName)
      .filter((name) => name.startsWith('.'))
      .map((name) => relative(root, resolve(root, dirname(file), name)))
      .filter((target) => known.has(target));
    graph.set(file, [...new Set(targets)]);
  }
  return graph;
}

/** Every circle, each once, as the files along it (first repeated at the end). */
export function cycles(graph: Graph): string[][] {
  const found = new Map<string, string[]>();
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (file: string): void => {
    state.set(file, 'open');
    stack.push(file);
    for (const next of graph.get(file) ?? []) {
      if (state.get(next) === 'open') {
        const circle = stack.slice(stack.indexOf(next));
        const key = [...circle].sort().join('|');
        if (!found.has(key)) found.set(key, [...circle, next]);
      } else if (!state.has(next)) visit(next);
    }
    stack.pop();
    state.set(file, 'done');
  };
  for (const file of [...graph.keys()].sort()) if (!state.has(file)) visit(file);
  return [...found.values()];
}
