// No import circles in src/ (the CLI had run.ts <-> ask.ts/scan.ts/status.ts): a circle
// makes load order matter and hides which module is the entry. This keeps them out.
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { cycles, importGraph } from './importGraph.ts';

const SRC = fileURLToPath(new URL('../../src', import.meta.url));

describe('import circles', () => {
  it('src/ has none', () => {
    expect(cycles(importGraph(SRC)).map((circle) => circle.join(' -> '))).toEqual([]);
  });

  it('the check sees a circle through a lazy import and through a type-only import', () => {
    const lazy = importGraph('/', {
      'cli/run.ts': "const load = () => import('./ask.ts');",
      'cli/ask.ts': "import { EXIT } from './run.ts';",
    });
    expect(cycles(lazy)).toEqual([['cli/ask.ts', 'cli/run.ts', 'cli/ask.ts']]);
    const typeOnly = importGraph('/', {
      'a.ts': "import type { B } from './b.ts';",
      'b.ts': "export type { A } from './a.ts';",
      'c.ts': "import { A } from './a.ts';",
    });
    expect(cycles(typeOnly)).toHaveLength(1);
  });
});
