// Where git stands on a file: tracked (the key is in history), untracked and
// not ignored (it would be committed), ignored, or outside any repository.
// Asks the git CLI and caches the answers until told the repository changed.
import { execFile } from 'node:child_process';
import { dirname, relative, resolve, sep } from 'node:path';

export type GitState = 'tracked' | 'untracked' | 'ignored' | 'outside';

interface RunResult {
  code: number;
  stdout: string;
}

export type GitRunner = (args: string[], cwd: string, input?: string) => Promise<RunResult>;

export const runGit: GitRunner = (args, cwd, input) => new Promise((resolvePromise) => {
  const child = execFile('git', args, { cwd, maxBuffer: 256 * 1024 * 1024, encoding: 'utf8' }, (error, stdout) => {
    const code = error ? (typeof (error as { code?: unknown }).code === 'number' ? (error as { code: number }).code : 128) : 0;
    resolvePromise({ code, stdout: stdout ?? '' });
  });
  if (input !== undefined) child.stdin?.end(input);
});

export class GitStatusCache {
  private readonly roots = new Map<string, Promise<string | null>>();
  private readonly states = new Map<string, Promise<GitState>>();
  private readonly run: GitRunner;

  constructor(run: GitRunner = runGit) {
    this.run = run;
  }

  /** The repository root holding a folder, or null. */
  root(folder: string): Promise<string | null> {
    let root = this.roots.get(folder);
    if (!root) {
      root = this.run(['rev-parse', '--show-toplevel'], folder).then((r) => (r.code === 0 ? resolve(r.stdout.trim()) : null), () => null);
      this.roots.set(folder, root);
    }
    return root;
  }

  status(file: string): Promise<GitState> {
    const path = resolve(file);
    let state = this.states.get(path);
    if (!state) {
      state = this.compute(path);
      this.states.set(path, state);
    }
    return state;
  }

  private async compute(path: string): Promise<GitState> {
    const root = await this.root(dirname(path));
    if (!root) return 'outside';
    const rel = relative(root, path).split(sep).join('/');
    if (rel.startsWith('..')) return 'outside';
    const tracked = await this.run(['ls-files', '--error-unmatch', '--', rel], root);
    if (tracked.code === 0) return 'tracked';
    const ignored = await this.run(['check-ignore', '-q', '--', rel], root);
    return ignored.code === 0 ? 'ignored' : 'untracked';
  }

  /** States of many files in one repository with two git calls. */
  async statusMany(root: string, relPaths: string[]): Promise<Map<string, GitState>> {
    const result = new Map<string, GitState>();
    if (relPaths.length === 0) return result;
    const tracked = new Set((await this.run(['ls-files', '-z'], root)).stdout.split('\0').filter(Boolean));
    const rest = relPaths.filter((p) => !tracked.has(p));
    const ignoredOut = rest.length ? (await this.run(['check-ignore', '--no-index', '-z', '--stdin'], root, rest.join('\0') + '\0')).stdout : '';
    const ignored = new Set(ignoredOut.split('\0').filter(Boolean));
    for (const rel of relPaths) result.set(rel, tracked.has(rel) ? 'tracked' : ignored.has(rel) ? 'ignored' : 'untracked');
    return result;
  }

  /** The repository changed (index, .gitignore, commit): ask again next time. */
  invalidate(): void {
    this.states.clear();
  }
}
