// Keyward's zip reading against Info-ZIP's own zip and unzip (Debian's zip and
// unzip; .ci/run installs them for npm run test:e2e): what unzip -p extracts,
// Keyward scans; the zips zip writes, Keyward reads.
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { routerKey } from '../../emulator/keyFactory.ts';
import { json, scanCli, tempDir } from '../../cli/gitFixtures.ts';
import { rawZip } from '../../cli/rawZip.ts';

const paths = (report: ReturnType<typeof json>) => report.findings.map((f) => `${f.path}:${f.line}:${f.column}`);

beforeAll(() => {
  for (const tool of ['zip', 'unzip'])
    if (spawnSync(tool, ['-v']).error) throw new Error(`${tool} is missing: apt-get install zip unzip (see .ci/run)`);
});

describe('a zip entry declaring fewer bytes than it holds', () => {
  it('is extracted whole by unzip -p, and scanned whole by keyward', () => {
    const dir = tempDir();
    const key = routerKey();
    const content = `${'// padding\n'.repeat(200)}k = '${key}';\n`;
    writeFileSync(join(dir, 'short.zip'), rawZip([{ name: 'app.js', data: content, declaredSize: 64 }]));
    // Info-ZIP's unzip inflates to the end of the deflate stream, whatever size the header declares.
    const unzip = spawnSync('unzip', ['-p', join(dir, 'short.zip')], { encoding: 'utf8' });
    expect(unzip.stdout).toContain(key);
    const run = scanCli(dir, ['--no-git', '--format', 'json', 'short.zip']);
    expect(run.status).toBe(1);
    expect(paths(json(run))).toEqual(['short.zip!app.js:201:6']);
  });
});

// Zips as Info-ZIP's zip writes them, read by Keyward's own central-directory reader: a stream from stdin (a
// zip64 end record though the plain one would do), a self-extractor's stub before the archive, an encrypted entry.
describe('zips written by Info-ZIP zip', () => {
  it('a zip of stdin, a zip behind a stub, and an encrypted entry (named, not guessed)', () => {
    const dir = tempDir();
    const key = routerKey();
    writeFileSync(join(dir, 'a.js'), `x\nconst k = "${key}";\n`);
    spawnSync('sh', ['-c', 'zip -q stream.zip - < a.js && zip -q plain.zip a.js && zip -q -P pw enc.zip a.js'], {
      cwd: dir,
    });
    spawnSync('sh', ['-c', '(echo "#!/bin/sh"; cat plain.zip) > sfx.zip && zip -q -A sfx.zip'], { cwd: dir });
    const run = scanCli(dir, ['--no-git', '--format', 'json', 'stream.zip', 'sfx.zip', 'enc.zip']);
    const report = json(run);
    expect(paths(report)).toEqual(['stream.zip!-:2:12', 'sfx.zip!a.js:2:12']);
    expect(report.skipped.map((s) => [s.path, s.reason, s.message])).toEqual([
      ['enc.zip!a.js', 'archive-unreadable', 'could not be unpacked (encrypted)'],
    ]);
  });
});
