// `keyward scan` on the split forms people write (issue 35 §3), as a repository holds them: a Python settings file, a
// shell script, a TOML and a YAML file with continued values, a README with a hard-wrapped key. Each is reported once
// under the split rule, at its first piece, in JSON and in the text report; files of unrelated neighbours (a prefix
// followed by prose, two literals side by side) say nothing. The forms themselves, with their sources, are in
// test/core/scan/splitKeys.test.ts.
import { describe, expect, it } from 'vitest';
import { fingerprint } from '../../src/core/keys/keyFormats.ts';
import { directKey, routerKey } from '../emulator/keyFactory.ts';
import { makeRepo, scanCli } from './gitFixtures.ts';

interface JsonFinding {
  path: string;
  line: number;
  column: number;
  endLine: number;
  ruleId: string;
  fingerprint: string;
}

describe('keyward scan: keys split over lines', () => {
  it('finds each form at its first piece, and nothing in the files of unrelated neighbours', () => {
    const repo = makeRepo();
    const keys = Array.from({ length: 6 }, () => routerKey());
    const direct = directKey('proj');
    const cut = (k: string, at = 30) => [k.slice(0, at), k.slice(at)] as const;
    const files: [path: string, text: string, line: number, column: number, key: string][] = [
      [
        'settings.py',
        `import os\n\nKEY = (\n    "sk-or-v1-"  # routing\n    "${keys[0]!.slice(9)}"\n)\n`,
        4,
        5,
        keys[0]!,
      ],
      [
        'deploy.sh',
        `curl https://x.test \\\n  -H "Authorization: Bearer ${cut(keys[1]!).join('\\\n')}"\n`,
        2,
        29,
        keys[1]!,
      ],
      ['config.toml', `[llm]\napi_key = """\\\n    ${cut(keys[2]!).join('\\\n    ')}"""\n`, 3, 5, keys[2]!],
      ['values.yaml', `env:\n  key: "${cut(keys[3]!).join('\\\n    ')}"\n`, 2, 9, keys[3]!],
      ['README.md', `# Demo\n\nRun it with ${cut(keys[4]!, 50).join('\n')} as the key.\n`, 3, 13, keys[4]!],
      ['notes.md', `The old key was ${cut(direct, 100).join('\n')}\nand is revoked.\n`, 1, 17, direct],
      ['app.py', `KEY = "${cut(keys[5]!).join('" \\\n      "')}"\n`, 1, 7, keys[5]!],
    ];
    for (const [path, text] of files) repo.write(path, text);
    // Unrelated neighbours: the prefix then prose, two literals side by side, a list of prefixes.
    repo.write(
      'docs/keys.md',
      'Routing keys start with sk-or-v1-\nand go on with 64 hex characters.\n\n- sk-or-v1-\n- sk-proj-\n',
    );
    repo.write('src/msg.py', 'MSG = ("sk-or-v1-"  # prefix\n       "is how a routing key starts")\nX = "a" "b"\n');
    repo.write('run.sh', 'echo "sk-or-v1-\\\n is the prefix"\n');
    const run = scanCli(repo.dir, ['--format', 'json']);
    expect(run.status).toBe(1);
    const found = (JSON.parse(run.stdout) as { findings: JsonFinding[] }).findings;
    expect(found.map((f) => [f.path, f.ruleId, f.line, f.column, f.fingerprint]).sort()).toEqual(
      files.map(([path, , line, column, key]) => [path, 'split-key', line, column, fingerprint(key)]).sort(),
    );
    const text = scanCli(repo.dir, []);
    expect(text.stdout).toMatch(/^values\.yaml:2:9: key assembled from string pieces/m);
    expect(text.stdout).toMatch(/keyward scan: 7 keys found\n$/);
    for (const key of [...keys, direct]) expect(text.stdout + run.stdout).not.toContain(key);
  });
});
