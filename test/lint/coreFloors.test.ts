// The floors of src/core, bottom to top: a file may import its own floor or one below, never one above. An import
// that points up ties two floors into one (config.ts -> account/fees.ts made settings and accounts one knot; the
// wire clients and the service modules imported each other), so nothing can be read, tested or replaced alone.
// Every file of core must match a floor: a new folder or root file gets its row here, on purpose.
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { type Graph, importGraph } from './importGraph.ts';

const CORE = fileURLToPath(new URL('../../src/core', import.meta.url));

/** Bottom first. Patterns are paths under src/core: a folder (`keys/`), a file, or a `*` within one name. */
export const FLOORS: readonly { name: string; holds: readonly string[] }[] = [
  {
    name: 'basics',
    holds: [
      'redact.ts',
      'json.ts',
      'sse.ts',
      'urlPolicy.ts',
      'builtin.ts',
      'cliParts.ts',
      'waitTimes.ts',
      'safeWrite.ts',
      'proxyConfig.ts',
      'proxyDispatcher.ts',
      'undiciLean.cjs',
      'lazy.ts',
      'fees.ts',
      'config.ts',
      'lm/',
    ],
  },
  {
    name: 'service descriptors (data only)',
    // What a wire client knows of its service (wire/wireProfile.ts) is the descriptor's part the clients take as an
    // argument: data too, so the clients import no descriptor.
    holds: ['services/descriptor.ts', 'services/descriptors.ts', 'services/*Descriptor.ts', 'wire/wireProfile.ts'],
  },
  {
    name: 'errors and transport',
    holds: ['errors.ts', 'classify.ts', 'retryPolicy.ts', 'certificateErrors.ts', 'proxyRefusal.ts', 'transport.ts'],
  },
  { name: 'keys', holds: ['keys/'] },
  { name: 'wire clients', holds: ['wire/'] },
  { name: 'account state and views', holds: ['account/'] },
  { name: 'service modules', holds: ['services/'] },
  { name: 'account monitor', holds: ['monitor/'] },
  { name: 'scan', holds: ['scan/'] },
  { name: 'guards', holds: ['guards/'] },
  { name: 'prompting', holds: ['chat/'] },
];

function matches(pattern: string, file: string): boolean {
  if (pattern.endsWith('/')) return file.startsWith(pattern);
  if (!pattern.includes('*')) return file === pattern;
  const [head, tail] = pattern.split('*') as [string, string];
  return file.startsWith(head) && file.endsWith(tail) && !file.slice(head.length).includes('/');
}

/** The floor of a file: the most specific pattern wins (a file over a `*` over a folder). */
export function floorOf(file: string, floors = FLOORS): number | undefined {
  let best: { floor: number; weight: number } | undefined;
  floors.forEach(({ holds }, floor) => {
    for (const pattern of holds) {
      if (!matches(pattern, file)) continue;
      const weight = pattern.endsWith('/') ? 0 : pattern.includes('*') ? 1 : 2;
      if (!best || weight > best.weight) best = { floor, weight };
    }
  });
  return best?.floor;
}

/** Every import that points up a floor, as `from (floor) -> to (floor)`. */
export function upwardImports(graph: Graph, floors = FLOORS): string[] {
  const found: string[] = [];
  for (const [file, targets] of graph) {
    const from = floorOf(file, floors);
    for (const target of targets) {
      const to = floorOf(target, floors);
      if (from === undefined || to === undefined || to <= from) continue;
      found.push(`${file} (${floors[from]!.name}) -> ${target} (${floors[to]!.name})`);
    }
  }
  return found.sort();
}

describe('the floors of src/core', () => {
  const graph = importGraph(CORE);

  it('every file of core stands on a floor', () => {
    expect([...graph.keys()].filter((file) => floorOf(file) === undefined)).toEqual([]);
  });

  it('no import points up a floor', () => {
    expect(upwardImports(graph)).toEqual([]);
  });

  it('the wire clients import no service descriptor: the module that opens a client passes its profile in', () => {
    const reads = [...graph]
      .filter(([file]) => file.startsWith('wire/'))
      .flatMap(([file, targets]) =>
        [...targets].filter((t) => t.startsWith('services/')).map((t) => `${file} -> ${t}`),
      );
    expect(reads).toEqual([]);
  });

  it('names an import that points up, and lets one that points down pass', () => {
    const knot = importGraph('/', {
      'config.ts': "import type { Tier } from './account/fees.ts';",
      'account/fees.ts': "import { DEFAULT_CONFIG } from '../config.ts';",
      'wire/client.ts': "import { SERVICES } from '../services/descriptors.ts';",
      'services/descriptors.ts': '',
      'services/router.ts': "import { Client } from '../wire/client.ts';",
    });
    expect(upwardImports(knot)).toEqual(['config.ts (basics) -> account/fees.ts (account state and views)']);
  });
});
