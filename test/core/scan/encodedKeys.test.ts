// Keys hidden in base64 (issue 23, part 3b): a Kubernetes Secret's data, npm's _auth, basic
// auth, docker's auth inside a Secret; reported at the encoded text with the encoded-key
// rule, named by the decoded key's owner and fingerprint. Decoding follows gitleaks
// (detect/codec/encodings.go: runs of [\w/+-]{16,}={0,2}; cmd/root.go: --max-decode-depth,
// recursive), limited here to texts that name a place where such values are kept.
import { describe, expect, it } from 'vitest';
import { fingerprint } from '../../../src/core/keys/keyFormats.ts';
import { optionsFor, scanText } from '../../../src/core/scan/scanner.ts';
import { scanBuffer } from '../../../src/core/scan/byteScan.ts';
import { mayContainKey } from '../../../src/core/scan/literalPrecheck.ts';
import { directKey, providerKey, routerKey } from '../../emulator/keyFactory.ts';

const b64 = (text: string) => Buffer.from(text).toString('base64');

/** The text with every long base64 run decoded, layer by layer (three at most, as the scanner). */
function decodeAll(text: string): string {
  let out = text;
  for (let layer = 0; layer < 3; layer++)
    out = out.replace(/[A-Za-z0-9+/]{36,}={0,2}/g, (run) => {
      const decoded = Buffer.from(run, 'base64').toString('latin1');
      return /^[\x20-\x7e]+$/.test(decoded) ? decoded : run;
    });
  return out;
}

describe('encoded keys: where base64 secrets are kept', () => {
  const key = routerKey();
  const anthropic = providerKey('anthropic-key');
  const CASES: [string, string, string, string][] = [
    [
      'a Kubernetes Secret (data:)',
      'secret.yaml',
      `apiVersion: v1\nkind: Secret\nmetadata:\n  name: llm\ntype: Opaque\ndata:\n  OPENROUTER_API_KEY: ${b64(key)}\n`,
      key,
    ],
    // Each anchor on its own (encodedKeys.ts looks for any of them in one pass before it looks for each).
    [
      'a Kubernetes Secret with CRLF line ends',
      'secret.yaml',
      `kind: Secret\r\ndata:\r\n  OPENROUTER_API_KEY: ${b64(key)}\r\n`,
      key,
    ],
    ['docker\'s "auth" in config.json', 'config.json', `{"auths":{"r.test":{"auth":"${b64(`u:${key}`)}"}}}\n`, key],
    ['.npmrc _auth', '.npmrc', `registry=https://npm.example.test/\n_auth=${b64(`ci:${key}`)}\n`, key],
    [
      'an Authorization: Basic header in a script',
      'deploy.sh',
      `curl -H "Authorization: Basic ${b64(`user:${anthropic}`)}" https://x.test\n`,
      anthropic,
    ],
    [
      'docker auth inside a Secret (two layers)',
      'pull-secret.yml',
      `kind: Secret\ntype: kubernetes.io/dockerconfigjson\ndata:\n  .dockerconfigjson: ${b64(JSON.stringify({ auths: { 'r.test': { auth: b64(`u:${key}`) } } }))}\n`,
      key,
    ],
  ];

  it.each(CASES)('%s', (_name, path, text, hidden) => {
    const options = optionsFor(path, {});
    expect(mayContainKey(Buffer.from(text), options)).toBe(true);
    const findings = scanBuffer(Buffer.from(text), options);
    expect(findings).toHaveLength(1);
    const [f] = findings;
    expect(f).toMatchObject({ ruleId: 'encoded-key', fingerprint: fingerprint(hidden) });
    expect(f!.masked.endsWith(hidden.slice(-4))).toBe(true);
    // At the encoded text: the whole base64 run, nothing else.
    const line = text.split('\n')[f!.line]!;
    const run = line.slice(f!.column, f!.endColumn);
    expect(run).toMatch(/^[A-Za-z0-9+/]+=*$/);
    expect(decodeAll(run)).toContain(hidden);
    expect(JSON.stringify(f)).not.toContain(hidden);
    // The editor and the secret guard read the text itself: the same finding.
    expect(scanText(text)).toEqual(findings);
  });

  it('names the owner of each kind of key', () => {
    for (const [hidden, service] of [
      [directKey('proj'), 'direct'],
      [providerKey('groq-key'), 'groq'],
      [providerKey('huggingface-token'), 'huggingface'],
    ] as const) {
      const [f] = scanText(`data:\n  KEY: ${b64(hidden)}\n`);
      expect(f).toMatchObject({ ruleId: 'encoded-key', service, fingerprint: fingerprint(hidden) });
    }
  });
});

describe('encoded keys: no finding', () => {
  const NEGATIVES: [string, string][] = [
    [
      'base64 of ordinary text in a Secret',
      `kind: Secret\ndata:\n  greeting: ${b64('hello, this is not a key at all, just words')}\n`,
    ],
    ['base64 of a placeholder key', `data:\n  KEY: ${b64(`sk-or-v1-${'x'.repeat(64)}`)}\n`],
    ['base64 of a key one character short', `data:\n  KEY: ${b64(routerKey().slice(0, -1))}\n`],
    [
      'binary base64 (an image)',
      `data:\n  logo.png: ${Buffer.from(Array.from({ length: 90 }, (_, i) => (i * 37) % 256)).toString('base64')}\n`,
    ],
    ['basic auth of a password', `Authorization: Basic ${b64('admin:correct-horse-battery-staple')}\n`],
  ];
  it.each(NEGATIVES)('%s', (_name, text) => {
    expect(scanText(text)).toEqual([]);
  });

  it("decodes only where the place is: the anchor's line, the block under data:", () => {
    const key = routerKey();
    const text = `_auth=${b64('ci:not-a-key-at-all-just-a-password')}\nconst blob = "${b64(key)}";\ndata: inline\n`;
    expect(scanText(text)).toEqual([]);
    const block = `data:\n  A: ${b64('plain value, long enough to decode')}\n  B: ${b64(key)}\nnext: ${b64(key)}\n`;
    expect(scanText(block).map((f) => f.line)).toEqual([2]);
  });

  it('reads "_auth" as npm\'s setting only, not as the start of a longer name (_authorize, _authToken)', () => {
    const key = routerKey();
    expect(scanText(`_auth = "${b64(`ci:${key}`)}"\n`).map((f) => f.ruleId)).toEqual(['encoded-key']);
    expect(scanText(`"_auth": "${b64(`ci:${key}`)}"\n`).map((f) => f.ruleId)).toEqual(['encoded-key']);
    // Code names many things _auth…: their lines are not places a base64 secret is kept.
    expect(scanText(`this._authorize("${b64(key)}");\n`)).toEqual([]);
    expect(mayContainKey(Buffer.from(`const _authToken = "${b64(key)}";\n`), optionsFor('.npmrc', {}))).toBe(false);
    expect(mayContainKey(Buffer.from(`_auth=${b64(key)}\n`), optionsFor('.npmrc', {}))).toBe(true);
  });

  it('decodes nothing in a text that names no such place', () => {
    // A base64 key in ordinary code is not looked at: decoding every run everywhere would be the slow path.
    expect(scanText(`const blob = "${b64(routerKey())}";\n`)).toEqual([]);
    expect(mayContainKey(Buffer.from(`const blob = "${b64(routerKey())}";\n`), optionsFor('app.js', {}))).toBe(false);
  });
});

describe('encoded keys: floods stay cheap', () => {
  it('a Secret of many printable base64 values, some of them base64 again', () => {
    const value = b64(b64('just a value, not a key, long enough to be decoded twice over'));
    const text = `kind: Secret\ndata:\n${`  v: ${value}\n`.repeat(50_000)}`;
    const start = performance.now();
    expect(scanText(text)).toEqual([]);
    expect(performance.now() - start).toBeLessThan(5_000);
  });
});
