// vitest's global setup: the CLI runs that tests start keep their compile cache (src/cli/launch.ts) in a folder of
// this test run's, not in the user's own cache folder, where every copy of the CLI a test makes would leave one.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export default function setup(): () => void {
  const folder = mkdtempSync(join(tmpdir(), 'keyward-test-cache-'));
  process.env.XDG_CACHE_HOME = folder;
  return () => rmSync(folder, { recursive: true, force: true });
}
