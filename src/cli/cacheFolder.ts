// Where the CLI's compile cache lives: the user's own cache folder, not Node's default in the shared temporary
// folder, where another user of the machine could have made the folder first.
import { join, win32 } from 'node:path';

/**
 * Under XDG_CACHE_HOME when it is set (on macOS too, as other command-line tools do), else where the platform keeps a
 * user's caches; undefined when the environment names no such folder by an absolute path (a relative one would put
 * the cache in whatever folder the CLI runs in: a repository being scanned).
 */
export function cacheFolder(platform: NodeJS.Platform, env: NodeJS.ProcessEnv): string | undefined {
  const absolute = (path: string | undefined) =>
    path !== undefined && (platform === 'win32' ? win32.isAbsolute(path) : path.startsWith('/')) ? path : undefined;
  if (platform === 'win32') {
    const local = absolute(env.LOCALAPPDATA);
    return local === undefined ? undefined : win32.join(local, 'keyward', 'Cache');
  }
  const xdg = absolute(env.XDG_CACHE_HOME);
  if (xdg !== undefined) return join(xdg, 'keyward');
  const home = absolute(env.HOME);
  if (home === undefined) return undefined;
  return platform === 'darwin' ? join(home, 'Library', 'Caches', 'keyward') : join(home, '.cache', 'keyward');
}
