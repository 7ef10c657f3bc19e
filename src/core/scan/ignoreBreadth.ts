// How much of a repository a .keywardignore path entry would hide, judged by what it matches rather than by how it
// is spelled: `?*`, `[!\n]*` and `**/**` cover every file as surely as `*` does, and `*.*` or `*/*` cover nearly all
// code. A glob has too many spellings to list (classes, negations, `?` runs, `**` in any place), so each entry is
// tried on a sample of paths in the shapes real repositories hold: files at the root and deep down, with and without
// an extension, dotfiles and dot-folders, vendored trees, and names with spaces, brackets, backslashes, leading
// dashes and non-ASCII letters.
//
// Every path of the sample: the entry covers every file. More than half of them: it covers most files. Half is the
// line because an entry the team means (a folder, a kind of file: `test/`, `*.json`, `docs/*.md`, `.*`) names one
// corner of the sample, never the bulk; `*.*` (every file with an extension, which is nearly all code) and `*/*`
// (every file below the root) do. No extension and no folder takes more than a few paths here, so an entry naming
// one extension or one folder stays far below the line (`test/core/scan/ignoreFile.test.ts` lists both sides).
import type { GlobMatcher } from './globMatch.ts';
const SAMPLE: readonly string[] = [
  'src/app.ts',
  'README.md',
  'package.json',
  'index.js',
  '.env',
  '.env.local',
  '.npmrc',
  '.github/workflows/ci.yml',
  '.hidden/a/b/c/d/e',
  'Makefile',
  'Dockerfile',
  'LICENSE',
  'bin/run',
  'x/y/Z',
  'n',
  'src/server/config.py',
  'lib/util.rb',
  'cmd/tool/main.go',
  'app/models/user.php',
  'config/settings.yaml',
  'scripts/deploy.sh',
  'docs/guide/setup.md',
  'test/fixtures/keys.json',
  'tests/test_api.py',
  'web/index.html',
  'web/style.css',
  'node_modules/pkg/dist/index.min.js',
  'vendor/github.com/x/y.go',
  'k8s/secret.yaml',
  'terraform/main.tf',
  'android/app/src/main/res/values/strings.xml',
  'packages/core/src/index.ts',
  'internal/auth/token.go',
  'services/api/handlers/user.js',
  'apps/web/pages/index.tsx',
  'src/main/java/com/acme/App.java',
  'crates/cli/src/main.rs',
  'ios/App/Info.plist',
  'notebooks/analysis.ipynb',
  'data.csv',
  'build.gradle',
  'Cargo.toml',
  'go.mod',
  'notes.txt',
  'a b/c d (1).txt',
  'ünï/cödé.rs',
  '[x]/y.c',
  '\\',
  '-rf',
  '#tag',
  '!bang',
  'x.',
  'ＡＢ',
];

/** How broad a path pattern is: 'every' file of the sample, 'most' of it (with what it matched), or neither. */
export type Breadth = { kind: 'every' } | { kind: 'most'; matched: readonly string[]; of: number } | undefined;

export function breadthOf(pattern: GlobMatcher): Breadth {
  const matched = SAMPLE.filter((path) => pattern.test(path));
  if (matched.length === SAMPLE.length) return { kind: 'every' };
  return matched.length * 2 > SAMPLE.length ? { kind: 'most', matched, of: SAMPLE.length } : undefined;
}

/** The refusal of a broad entry, or undefined for one that names a corner of the tree. */
export function breadthProblem(glob: string, pattern: GlobMatcher): string | undefined {
  const breadth = breadthOf(pattern);
  if (breadth === undefined) return undefined;
  if (breadth.kind === 'every') return `"${glob}" would suppress every file: name the files or folders`;
  const examples = breadth.matched.slice(0, 3).join(', ');
  return `"${glob}" would suppress most files (${breadth.matched.length} of ${breadth.of} ordinary paths, as ${examples}, …): name the files or folders`;
}
