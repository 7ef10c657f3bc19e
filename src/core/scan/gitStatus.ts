// Where git stands on a file: tracked (the key is in history), untracked and
// not ignored (it would be committed), ignored, or outside any repository.
// Asks the git CLI and caches the answers until told the repository changed.
// Paths are compared as real paths: a file reached through a symlinked folder
// is the file git knows under its real name.
// The callback form of the native realpath, which fs/promises' realpath is: the same answer, off the main
// thread as before, without loading fs/promises (a start-up cost of `keyward scan`).
import { lstatSync, realpath, realpathSync } from 'node:fs';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import { gitMessage, literalPath, runGit as runSafeGit } from './git.ts';

export type GitState = 'tracked' | 'untracked' | 'ignored' | 'outside';

export interface RunResult {
  code: number;
  stdout: string;
  stderr?: string;
}

export type GitRunner = (args: string[], cwd: string, input?: string) => Promise<RunResult>;

/** Runs git with the repository's config-driven programs off and no secrets in its environment. */
export const runGit: GitRunner = (args, cwd, input) => runSafeGit(args, cwd, input === undefined ? {} : { input });

/**
 * The path, then each folder above it, with the names below each (outermost first), for the real path of the
 * first that exists. `rest` is the same array, grown at each step: read it before asking for the next.
 */
function* upward(path: string): Generator<{ at: string; rest: readonly string[] }> {
  let current = resolve(path);
  const rest: string[] = [];
  for (;;) {
    yield { at: current, rest };
    const parent = dirname(current);
    if (parent === current) return;
    rest.unshift(basename(current));
    current = parent;
  }
}

const below = (real: string, rest: readonly string[]) => (rest.length > 0 ? join(real, ...rest) : real);

/** The real path of a file or folder; for a path that does not exist yet, of its nearest existing ancestor. */
export async function realPathOf(path: string): Promise<string> {
  for (const { at, rest } of upward(path)) {
    try {
      const real = await new Promise<string>((done, fail) =>
        realpath.native(at, (error, resolved) => (error ? fail(error) : done(resolved))),
      );
      return below(real, rest);
    } catch {
      // Not there (yet): its folder.
    }
  }
  return resolve(path);
}

/**
 * realPathOf on the main thread, for a caller that blocks anyway (the CLI's listing): the thread pool an
 * asynchronous call starts (four threads, and io_uring set up) was a visible part of `keyward scan`'s start.
 */
export function realPathOfSync(path: string): string {
  for (const { at, rest } of upward(path)) {
    try {
      return below(realpathSync.native(at), rest);
    } catch {
      // Not there (yet): its folder.
    }
  }
  return resolve(path);
}

/** A repository git will not open: its folder, and what git said. */
export interface GitRefusal {
  repository: string;
  message: string;
}

interface RootProbe {
  root: string | null;
  /** The folder asked about (a real path) and git's stderr, when git found no repository. */
  asked?: string;
  stderr?: string;
}

/** The nearest folder at or above a real path that holds a `.git` entry, or null. */
function dotGitAbove(real: string): string | null {
  for (let dir = real; ;) {
    try {
      lstatSync(join(dir, '.git'));
      return dir;
    } catch {
      const parent = dirname(dir);
      if (parent === dir) return null;
      dir = parent;
    }
  }
}

export class GitStatusCache {
  private readonly roots = new Map<string, Promise<RootProbe>>();
  private readonly states = new Map<string, Promise<GitState>>();
  /** How git is run: the one way (git.ts), or a test's counting runner. */
  readonly run: GitRunner;
  /** Counts invalidate() calls: answers asked for before one are not kept after it (keep()). */
  generation = 0;

  constructor(run: GitRunner = runGit) {
    this.run = run;
  }

  /** The repository root holding a folder (as a real path), or null. */
  root(folder: string): Promise<string | null> {
    return this.probe(folder).then((p) => p.root);
  }

  /**
   * Why there is no repository root for a folder although a `.git` is there:
   * git refuses it (dubious ownership, safe.directory) or cannot read it (a
   * corrupt HEAD makes git look past it). Null when git found the repository,
   * or there is none. Such a folder must not pass for one outside git.
   */
  async refusal(folder: string): Promise<GitRefusal | null> {
    const probe = await this.probe(folder);
    if (probe.root || probe.asked === undefined) return null;
    const repository = dotGitAbove(probe.asked);
    if (!repository) return null;
    const said = gitMessage(probe.stderr ?? '').replace(/\s+/g, ' ');
    return {
      repository,
      message: /safe\.directory/.test(said)
        ? said
        : `${said || 'git found no repository'}; yet ${join(repository, '.git')} is there: repair it (a corrupt HEAD?), or scan with --no-git`,
    };
  }

  private probe(folder: string): Promise<RootProbe> {
    let probe = this.roots.get(folder);
    if (!probe) {
      probe = realPathOf(folder).then(async (real) => {
        try {
          const r = await this.run(['rev-parse', '--show-toplevel'], real);
          if (r.code === 0) return { root: await realPathOf(r.stdout.trim()) };
          return { root: null, asked: real, stderr: r.stderr ?? '' };
        } catch {
          return { root: null };
        }
      });
      this.roots.set(folder, probe);
    }
    return probe;
  }

  status(file: string): Promise<GitState> {
    const path = resolve(file);
    let state = this.states.get(path);
    if (!state) {
      state = realPathOf(path).then((real) => this.compute(real));
      this.states.set(path, state);
    }
    return state;
  }

  private async compute(path: string): Promise<GitState> {
    const root = await this.root(dirname(path));
    if (!root) return 'outside';
    const rel = relative(root, path).split(sep).join('/');
    if (rel.startsWith('..')) return 'outside';
    const tracked = await this.run(['ls-files', '--error-unmatch', '--', literalPath(rel)], root);
    if (tracked.code === 0) return 'tracked';
    const ignored = await this.run(['check-ignore', '-q', '--', rel], root);
    return ignored.code === 0 ? 'ignored' : 'untracked';
  }

  /**
   * Keeps an answer asked for elsewhere (gitPrefetch.ts), unless the repository changed since `generation`: an
   * answer from before invalidate() may be old.
   */
  keep(real: string, state: GitState, generation: number): void {
    if (generation === this.generation) this.states.set(real, Promise.resolve(state));
  }

  /** The repository changed (index, .gitignore, commit): ask again next time. */
  invalidate(): void {
    this.generation++;
    this.states.clear();
  }
}
