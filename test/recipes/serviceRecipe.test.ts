// CONTRIBUTING.md "Add a service": a service is its module (src/core/services/<id>.ts, with its descriptor in
// <id>Descriptor.ts) and one line in each of the two registries. Adding a scratch id to SERVICE_IDS must make the
// compiler name those two registries and no other file in src/: everything else reads the rows and calls the
// module (continuedev/continue core/llm/llms/index.ts keeps the same promise with one provider list).
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { COMPILE_MS, filesFlaggedAfter } from './scratchCompile.ts';

const SRC = resolve(import.meta.dirname, '../../src');
const REGISTRIES = ['src/core/services/descriptors.ts', 'src/core/services/registry.ts'];

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sources(path) : path.endsWith('.ts') ? [path] : [];
  });
}

describe('the add-a-service recipe', () => {
  it(
    'a new service id is flagged only in the two registries',
    async () => {
      const flagged = await filesFlaggedAfter('src/shared/serviceIds.ts', (text) =>
        text.replace(
          "['router', 'direct', 'compatible'] as const",
          "['router', 'direct', 'compatible', 'scratch'] as const",
        ),
      );
      expect(flagged).toEqual(REGISTRIES);
    },
    COMPILE_MS,
  );

  it('no code outside the service modules switches on a service id', () => {
    // `case 'router':` or `service === 'direct'`: a branch that a new service would silently fall through. (A key
    // shape or an error dialect may share a service's name; comparing those is not asking which service it is.)
    const branch = /case '(router|direct|compatible)':|\b(service|id)\s*[!=]==\s*'(router|direct|compatible)'/;
    const offending = sources(SRC)
      .map((path) => relative(resolve(SRC, '..'), path))
      .filter((path) => !path.startsWith('src/core/services/'))
      .filter((path) =>
        readFileSync(resolve(SRC, '..', path), 'utf8')
          .split('\n')
          .some((line) => branch.test(line)),
      );
    // src/core/scan/verify.ts tells a direct-service admin key apart by its prefix: the scanner's key shapes are
    // keyed by service until the rules move into the modules (issue 20, the scanner-rules slice).
    expect(offending).toEqual(['src/core/scan/verify.ts']);
  });
});
