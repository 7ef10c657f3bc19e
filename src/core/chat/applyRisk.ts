// Files that run code by themselves, for Apply (issue 31 item 12): an answer that names `.github/workflows/ci.yml`
// could add a job running `curl … | sh`, and nobody runs it by hand. Such a file is never chosen from the answer
// alone, and its Keep/Undo banner names the risk. The list holds files that a tool runs or obeys without being
// asked to run that file: on opening the folder, on install, on commit or push, in CI, on `pytest`, on `cd`. Source
// files run only when the person runs their program, and are not listed; nor are Dockerfiles, built on request.
// `.git/` is another matter: nothing there is ever written (`insideGit`).

/** What a listed file makes run; the host has the words for each. */
export type CodeRisk = 'editor' | 'ci' | 'hooks' | 'packageScripts' | 'buildTools' | 'dependencies' | 'environment';

/** A path's parts as a case-insensitive file system and Windows compare them (`.GIT`, `.git.`, `GIT~1`). */
function parts(path: string): string[] {
  return path
    .replace(/\\/g, '/')
    .split('/')
    .map((part) => part.toLowerCase().replace(/[. ]+$/, (tail) => (part === '.' || part === '..' ? tail : '')))
    .filter((part) => part !== '' && part !== '.');
}

/**
 * Whether `path` (relative or absolute, written any way) reaches into a git directory: a `.git` part at any depth
 * (a nested repository's too), in any case, with Windows' trailing dots and spaces, or as its short name `GIT~1`.
 * `..` is resolved first, so `sub/../.git/config` is caught. Callers check the real path as well (symbolic links).
 */
export function insideGit(path: string): boolean {
  const resolved: string[] = [];
  for (const part of parts(path)) {
    if (part === '..') resolved.pop();
    else resolved.push(part);
  }
  return resolved.some((part) => part === '.git' || /^git~\d+$/.test(part));
}

/** Rows: a test on the path's parts (lower case), and what it runs. Order does not matter: one row matches. */
const ROWS: readonly { risk: CodeRisk; matches: (parts: string[], name: string) => boolean }[] = [
  // Tasks that run on folder open, debug launchers, settings that name programs (terminal, interpreters, linters),
  // recommended extensions; a workspace file holds all of them.
  { risk: 'editor', matches: (p, n) => p.includes('.vscode') || n.endsWith('.code-workspace') },
  {
    risk: 'ci',
    matches: (p, n) =>
      (p[0] === '.github' && (p[1] === 'workflows' || p[1] === 'actions')) ||
      ['.circleci', '.buildkite', '.woodpecker'].includes(p[0]!) ||
      /^(?:\.gitlab-ci\.ya?ml|azure-pipelines\.ya?ml|\.travis\.ya?ml|jenkinsfile|bitbucket-pipelines\.ya?ml|\.drone\.ya?ml|cloudbuild\.ya?ml)$/.test(
        n,
      ),
  },
  // Run on commit and push, by git or by the hook managers installed from the repository.
  {
    risk: 'hooks',
    matches: (p, n) =>
      ['.husky', '.githooks', '.hooks'].includes(p[0]!) ||
      /^(?:\.pre-commit-config\.ya?ml|\.pre-commit-hooks\.ya?ml|\.?lefthook\.ya?ml|\.lintstagedrc.*|lint-staged\.config\..*)$/.test(
        n,
      ),
  },
  // Install scripts run on `npm install`; `.npmrc` can name the shell scripts run in, `.yarnrc.yml` a JS file to run.
  {
    risk: 'packageScripts',
    matches: (_p, n) => /^(?:package\.json|\.npmrc|\.yarnrc(?:\.yml)?|\.?pnpmfile\.c?js|composer\.json)$/.test(n),
  },
  // Loaded by build and test tools, and by editor extensions on open (ESLint and Prettier configs are code).
  {
    risk: 'buildTools',
    matches: (_p, n) =>
      /^(?:makefile|gnumakefile|conftest\.py|setup\.py|pyproject\.toml|noxfile\.py|tox\.ini|build\.rs|rakefile|gemfile|justfile|taskfile\.ya?ml|build\.gradle(?:\.kts)?|settings\.gradle(?:\.kts)?|gradlew)$/.test(
        n,
      ) || /^(?:[\w-]+\.config|\.[\w-]+rc)\.(?:[cm]?js|[cm]?ts)$/.test(n),
  },
  // Code the project and its tools load, which nobody reviews line by line.
  { risk: 'dependencies', matches: (p) => p.some((x) => ['node_modules', '.venv', 'site-packages'].includes(x)) },
  // Run by direnv on `cd`, and by the editor when it builds or opens a dev container.
  { risk: 'environment', matches: (p, n) => n === '.envrc' || p.includes('.devcontainer') },
];

/** What `relativePath` (from its workspace folder) runs by itself, or undefined for a file that runs nothing so. */
export function codeRisk(relativePath: string): CodeRisk | undefined {
  const p = parts(relativePath);
  const name = p.at(-1) ?? '';
  return ROWS.find((row) => row.matches(p, name))?.risk;
}
