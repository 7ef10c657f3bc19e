// The import boundaries of the house style, enforced rather than hoped for:
// webview -> shared <- core <- host <- extension.ts, and cli -> core; host and cli never import each other.
import tseslint from 'typescript-eslint';

const noVscode = { name: 'vscode', message: 'Only src/host and src/extension.ts may talk to VS Code.' };
const layer = (folder, message) => ({ group: [`**/${folder}/**`, `../${folder}/*`, `./${folder}/*`], message });

export default tseslint.config(
  { ignores: ['dist/**', 'out/**', 'node_modules/**', '.vscode-test/**', 'test-results/**'] },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    // Rules that need types: a promise nobody awaits hides its failure, and a
    // switch over a union must name every member (or say why it has a default).
    files: ['**/*.ts'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': [
        'error',
        { considerDefaultExhaustiveForUnions: true, requireDefaultForNonUnion: false },
      ],
    },
  },
  {
    // A function one can read on one screen, a file one can hold in mind; blank lines and comments count. A longer
    // one says why, in a comment beside its eslint-disable (a table of strings).
    files: ['src/**/*.ts'],
    rules: {
      'max-lines-per-function': ['error', { max: 80, skipBlankLines: false, skipComments: false }],
      'max-lines': ['error', { max: 450, skipBlankLines: false, skipComments: false }],
    },
  },
  {
    files: ['src/shared/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [noVscode],
          patterns: [
            { group: ['node:*'], message: 'shared/ runs in the webview too: no Node modules.' },
            layer('core', 'shared/ must not depend on core/.'),
            layer('host', 'shared/ must not depend on host/.'),
            layer('webview', 'shared/ must not depend on webview/.'),
            layer('cli', 'shared/ must not depend on cli/.'),
          ],
        },
      ],
    },
  },
  {
    files: ['src/core/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [noVscode],
          patterns: [
            layer('host', 'core/ must not depend on host/.'),
            layer('webview', 'core/ must not depend on webview/.'),
            layer('cli', 'core/ must not depend on cli/.'),
          ],
        },
      ],
    },
  },
  {
    files: ['src/webview/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [noVscode],
          patterns: [
            { group: ['node:*'], message: 'The webview is a browser bundle.' },
            layer('core', 'webview/ may import only shared/.'),
            layer('host', 'webview/ may import only shared/.'),
            layer('cli', 'webview/ may import only shared/.'),
          ],
        },
      ],
      // State belongs to an object that owns it, not to the module.
      'no-restricted-syntax': [
        'error',
        {
          selector:
            'Program > VariableDeclaration[kind="let"], Program > ExportNamedDeclaration > VariableDeclaration[kind="let"]',
          message: 'No module-level let in the webview: give the state to an object that owns it.',
        },
      ],
    },
  },
  {
    // The host adapts core to VS Code; the webview is another bundle it talks to only through shared/protocol.ts,
    // and the CLI is another door onto core.
    files: ['src/host/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            layer('webview', 'host/ talks to the webview through shared/protocol.ts, not by importing it.'),
            layer('cli', 'host/ stands on core/, not on cli/.'),
          ],
        },
      ],
    },
  },
  {
    files: ['src/cli/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [noVscode],
          patterns: [
            layer('host', 'cli/ stands on core/, not on host/.'),
            layer('webview', 'cli/ stands on core/, not on webview/.'),
          ],
        },
      ],
    },
  },
  {
    files: ['**/*.cjs'],
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    // Tests read loosely typed JSON from the wire.
    files: ['test/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    files: ['test/core/**/*.ts', 'test/emulator/**/*.ts', 'test/cli/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { paths: [noVscode] }] },
  },
);
