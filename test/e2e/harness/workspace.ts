// The workspace the e2e runs open: a temporary git repository with tracked,
// untracked and ignored files that hold generated keys (none of them is ever
// written into this repository).
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { directKey, routerKey } from '../../emulator/keyFactory.ts';

export interface E2eWorkspace {
  folder: string;
  keys: { tracked: string; trackedSource: string; untracked: string; ignored: string };
  files: { tracked: string; trackedSource: string; untracked: string; ignored: string; clean: string };
}

export function createWorkspace(parent = tmpdir()): E2eWorkspace {
  const folder = mkdtempSync(join(parent, 'keyward-ws-'));
  const keys = {
    tracked: routerKey(),
    trackedSource: directKey('proj'),
    untracked: routerKey(),
    ignored: directKey('proj'),
  };
  const files = {
    tracked: 'config/tracked.env',
    trackedSource: 'src/client.ts',
    untracked: 'scratch.js',
    ignored: 'local.env',
    clean: 'README.md',
  };
  const write = (path: string, text: string) => {
    mkdirSync(dirname(join(folder, path)), { recursive: true });
    writeFileSync(join(folder, path), text);
  };
  write(files.clean, '# Sample project\n\nKeys belong in SecretStorage, not here.\n');
  write('.gitignore', 'local.env\nnode_modules/\n');
  write(files.tracked, `# committed by mistake\nOPENROUTER_API_KEY=${keys.tracked}\n`);
  write(
    files.trackedSource,
    `import OpenAI from 'openai';\n\nexport const client = new OpenAI({\n  apiKey: "${keys.trackedSource}",\n});\n`,
  );
  const git = (...args: string[]) =>
    execFileSync(
      'git',
      ['-c', 'user.email=e2e@keyward.test', '-c', 'user.name=Keyward e2e', '-c', 'init.defaultBranch=main', ...args],
      { cwd: folder, stdio: 'ignore' },
    );
  git('init', '-q');
  git('add', '.');
  git('commit', '-q', '-m', 'initial');
  write(files.untracked, `// not committed yet\nconst key = '${keys.untracked}';\nconsole.log(key.length);\n`);
  write(files.ignored, `OPENAI_API_KEY=${keys.ignored}\n`);
  return { folder, keys, files };
}
