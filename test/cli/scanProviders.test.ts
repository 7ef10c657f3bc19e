// `keyward scan` on other AI providers' keys, split keys and base64-encoded keys (issue 23,
// parts 1 and 3): each comes out under its own rule id and title in the text report, the JSON
// contract and SARIF (whose tool.driver.rules names each rule used), and fails the scan.
// A staged commit is checked too: the hook and the CI action run the same scan.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fingerprint } from '../../src/core/keys/keyFormats.ts';
import { PROVIDER_RULES } from '../../src/core/scan/providerRules.ts';
import { PROVIDER_KEY_RULES, type ProviderKeyRule, providerKey, routerKey } from '../emulator/keyFactory.ts';

const CLI = resolve('dist/cli.js');
let repo: string;

const git = (...args: string[]) =>
  execFileSync(
    'git',
    ['-c', 'user.email=t@keyward.test', '-c', 'user.name=t', '-c', 'init.defaultBranch=main', ...args],
    { cwd: repo, stdio: 'pipe' },
  ).toString();
const write = (path: string, text: string) => {
  mkdirSync(join(repo, path, '..'), { recursive: true });
  writeFileSync(join(repo, path), text);
};
const scan = (...args: string[]) =>
  spawnSync(process.execPath, [CLI, 'scan', ...args], { cwd: repo, encoding: 'utf8' });

interface JsonFinding {
  path: string;
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
  ruleId: string;
  service: string;
  masked: string;
  fingerprint: string;
}

beforeEach(() => {
  repo = mkdtempSync(join(tmpdir(), 'keyward-providers-'));
  git('init', '-q');
});
afterEach(() => rmSync(repo, { recursive: true, force: true }));

describe('keyward scan: other providers, split and encoded keys', () => {
  it('reports each provider key under its own rule, in text, JSON and SARIF, and exits 1', () => {
    const keys = new Map<ProviderKeyRule, string>(PROVIDER_KEY_RULES.map((rule) => [rule, providerKey(rule)]));
    // One provider per file, in .env, code and YAML by turns.
    const paths = new Map<ProviderKeyRule, string>();
    PROVIDER_KEY_RULES.forEach((rule, i) => {
      const key = keys.get(rule)!;
      const [path, text] =
        i % 3 === 0
          ? [`env/${rule}.env`, `KEY=${key}\n`]
          : i % 3 === 1
            ? [`src/${rule}.ts`, `export const key = '${key}';\n`]
            : [`k8s/${rule}.yaml`, `env:\n  - name: KEY\n    value: ${key}\n`];
      paths.set(rule, path);
      write(path, text);
    });

    const json = scan('--format', 'json');
    expect(json.status).toBe(1);
    const findings = (JSON.parse(json.stdout) as { findings: JsonFinding[] }).findings;
    expect(findings.map((f) => f.ruleId).sort()).toEqual([...PROVIDER_KEY_RULES].sort());
    for (const f of findings) {
      const rule = f.ruleId as ProviderKeyRule;
      const key = keys.get(rule)!;
      expect(f).toMatchObject({
        path: paths.get(rule),
        service: PROVIDER_RULES[rule].provider,
        fingerprint: fingerprint(key),
      });
      expect(f.endColumn - f.column).toBe(key.length);
      expect(json.stdout).not.toContain(key);
    }

    const text = scan();
    expect(text.status).toBe(1);
    for (const rule of PROVIDER_KEY_RULES) {
      const line = text.stdout.split('\n').find((l) => l.startsWith(`${paths.get(rule)}:`));
      expect(line, rule).toContain(` ${PROVIDER_RULES[rule].description} `);
    }
    expect(text.stdout).toContain(`keyward scan: ${PROVIDER_KEY_RULES.length} keys found`);

    const sarif = JSON.parse(scan('--format', 'sarif').stdout) as any;
    const run = sarif.runs[0];
    expect(run.results).toHaveLength(PROVIDER_KEY_RULES.length);
    for (const result of run.results) {
      const rule = run.tool.driver.rules[result.ruleIndex];
      expect(rule.id).toBe(result.ruleId);
      const title = PROVIDER_RULES[result.ruleId as ProviderKeyRule].description;
      expect(rule.shortDescription.text).toBe(`Exposed ${title}`);
      expect(
        rule.fullDescription.text.startsWith(`${/^(Anthropic|xAI)/.test(title) ? 'An' : 'A'} ${title} appears`),
      ).toBe(true);
    }
  });

  it('reports a split key and a key in a Kubernetes Secret at their own text, under their own rules', () => {
    const split = routerKey();
    const encoded = providerKey('anthropic-key');
    write('src/client.js', `const key = '${split.slice(0, 25)}' +\n  '${split.slice(25)}';\n`);
    write(
      'k8s/secret.yaml',
      `apiVersion: v1\nkind: Secret\ndata:\n  ANTHROPIC_API_KEY: ${Buffer.from(encoded).toString('base64')}\n`,
    );
    write('src/clean.js', `const words = 'sk-or-v1-' + 'is a prefix';\n`);
    const json = scan('--format', 'json');
    expect(json.status).toBe(1);
    const findings = (JSON.parse(json.stdout) as { findings: JsonFinding[] }).findings;
    expect(findings).toHaveLength(2);
    expect(findings.find((f) => f.path === 'src/client.js')).toMatchObject({
      ruleId: 'split-key',
      service: 'router',
      line: 1,
      column: 13,
      endLine: 2,
      endColumn: 2 + split.length - 25 + 2 + 1,
      fingerprint: fingerprint(split),
    });
    const base64 = Buffer.from(encoded).toString('base64');
    expect(findings.find((f) => f.path === 'k8s/secret.yaml')).toMatchObject({
      ruleId: 'encoded-key',
      service: 'anthropic',
      line: 4,
      column: 22,
      endColumn: 22 + base64.length,
      fingerprint: fingerprint(encoded),
    });
    expect(json.stdout).not.toContain(split);
    expect(json.stdout).not.toContain(encoded);

    const text = scan().stdout;
    expect(text).toMatch(/^src\/client\.js:1:13: key assembled from string pieces sk-or-v1-…/m);
    expect(text).toMatch(/^k8s\/secret\.yaml:4:22: base64-encoded key sk-ant-api03-…/m);

    const sarif = JSON.parse(scan('--format', 'sarif').stdout) as any;
    const ids = sarif.runs[0].tool.driver.rules.map((r: { id: string }) => r.id).sort();
    expect(ids).toEqual(['encoded-key', 'split-key']);

    // The pre-commit hook and the CI action scan what is staged: the same findings.
    git('add', '.');
    const staged = JSON.parse(scan('--staged', '--format', 'json').stdout) as { findings: JsonFinding[] };
    expect(staged.findings.map((f) => f.ruleId).sort()).toEqual(['encoded-key', 'split-key']);
  });
});
