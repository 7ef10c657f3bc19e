// CONTRIBUTING.md "Add an error kind": a kind is one row of src/shared/errorKindRules.ts. Adding a scratch kind to
// ERROR_KINDS must make the compiler name that table and nothing else in src/ (the classify rule, which decides when
// a response becomes the kind, cannot be asked for by a type and is named in the recipe instead).
import { describe, expect, it } from 'vitest';
import { COMPILE_MS, filesFlaggedAfter } from './scratchCompile.ts';

describe('the add-an-error-kind recipe', () => {
  it(
    'a new kind is flagged only in the error-kind table',
    async () => {
      const flagged = await filesFlaggedAfter('src/shared/errorKinds.ts', (text) =>
        text.replace("  'auth',\n", "  'auth',\n  'scratch_kind',\n"),
      );
      expect(flagged).toEqual(['src/shared/errorKindRules.ts']);
    },
    COMPILE_MS,
  );
});
