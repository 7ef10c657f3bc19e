// Issue 31 item 12: Apply wrote into files that run code (tasks, CI, hooks, package scripts) on the answer's word.
import { describe, expect, it } from 'vitest';
import { codeRisk, insideGit } from '../../../src/core/chat/applyRisk.ts';

describe('files that run code by themselves', () => {
  it.each([
    ['.vscode/tasks.json', 'editor'],
    ['.vscode/settings.json', 'editor'],
    ['.vscode/launch.json', 'editor'],
    ['.vscode/extensions.json', 'editor'],
    ['pkg/.VSCode/tasks.json', 'editor'],
    ['team.code-workspace', 'editor'],
    ['.github/workflows/ci.yml', 'ci'],
    ['.github/workflows/nested/deploy.yaml', 'ci'],
    ['.github/actions/setup/action.yml', 'ci'],
    ['.gitlab-ci.yml', 'ci'],
    ['.circleci/config.yml', 'ci'],
    ['azure-pipelines.yml', 'ci'],
    ['Jenkinsfile', 'ci'],
    ['.pre-commit-config.yaml', 'hooks'],
    ['.husky/pre-commit', 'hooks'],
    ['lefthook.yml', 'hooks'],
    ['.lintstagedrc.json', 'hooks'],
    ['package.json', 'packageScripts'],
    ['packages/app/package.json', 'packageScripts'],
    ['.npmrc', 'packageScripts'],
    ['.yarnrc.yml', 'packageScripts'],
    ['Makefile', 'buildTools'],
    ['tests/conftest.py', 'buildTools'],
    ['setup.py', 'buildTools'],
    ['pyproject.toml', 'buildTools'],
    ['build.rs', 'buildTools'],
    ['eslint.config.js', 'buildTools'],
    ['vitest.config.ts', 'buildTools'],
    ['.prettierrc.cjs', 'buildTools'],
    ['node_modules/left-pad/index.js', 'dependencies'],
    ['.venv/lib/python3.12/site-packages/x.py', 'dependencies'],
    ['.envrc', 'environment'],
    ['.devcontainer/devcontainer.json', 'environment'],
    // Trailing dots and spaces name the same file on Windows.
    ['package.json.', 'packageScripts'],
  ])('%s runs code (%s)', (path, risk) => {
    expect(codeRisk(path)).toBe(risk);
  });

  it.each(['src/app.ts', 'demo.js', 'README.md', 'Dockerfile', 'docs/package.md', '.github/CODEOWNERS', 'config.json'])(
    '%s is an ordinary file',
    (path) => expect(codeRisk(path)).toBeUndefined(),
  );
});

describe('.git is never written', () => {
  it.each([
    '.git/config',
    '.git/config.worktree',
    '.git/hooks/pre-commit',
    './.git/config',
    'sub/../.git/config',
    '.GIT/config',
    '.Git/hooks/post-checkout',
    '.git./config',
    '.git /config',
    'GIT~1/config',
    '.git\\hooks\\pre-push',
    'vendor/lib/.git/config',
    '.git',
    '/home/someone/repo/.git/worktrees/x/HEAD',
  ])('%s is inside git', (path) => expect(insideGit(path)).toBe(true));

  it.each(['.github/workflows/ci.yml', '.gitignore', '.gitattributes', 'src/.git-keep', 'x/.git/../y.ts', 'digit/a'])(
    '%s is not',
    (path) => expect(insideGit(path)).toBe(false),
  );
});
