// A large document opened in the editor never holds the extension host's event loop (issue 31): above IN_LINE_SCAN
// characters it is scanned on the scanner thread (here its TypeScript source, which Node reads as it is), a newer
// text replaces one not yet scanned, and a document over keyward.scan.maxFileSizeKb is named, not scanned.
import { resolve } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fingerprint } from '../../../src/core/keys/keyFormats.ts';
import * as scanner from '../../../src/core/scan/scanner.ts';
import { ScanThreadOnDemand } from '../../../src/host/scan/scanThreadOnDemand.ts';
import { IN_LINE_SCAN, KeyDiagnostics, NOT_SCANNED_CODE } from '../../../src/host/scan/keyDiagnostics.ts';
import { routerKey } from '../../emulator/keyFactory.ts';
import { base64Triggers } from '../../core/scan/adversarialInputs.ts';
import { type EditorParts, editorParts } from '../editorParts.ts';
import { DiagnosticSeverity, fakeDocument } from '../fakeVscode.ts';
import { fake } from '../vscodeShim.ts';

// Every scan on this thread is seen: a large document must not be one of them.
vi.mock('../../../src/core/scan/scanner.ts', async (original) => {
  const real = await original<typeof import('../../../src/core/scan/scanner.ts')>();
  return { ...real, scanText: vi.fn(real.scanText) };
});

let parts: EditorParts;
// As activation builds it: the thread's driver loads with the first large document.
let thread: ScanThreadOnDemand;
let diagnostics: KeyDiagnostics;
afterEach(() => {
  diagnostics.dispose();
  thread.dispose();
  parts.dispose();
});

function setUp(settings: Record<string, unknown> = {}): void {
  parts = editorParts(settings);
  thread = new ScanThreadOnDemand(resolve('src/core/scan/scanWorker.ts'));
  fake.state.diagnosticCollections.length = 0;
  diagnostics = new KeyDiagnostics(parts.keys, parts.configuration, undefined, thread);
}

const published = (doc: { uri: unknown }) => fake.state.diagnosticCollections[0]!.get(doc.uri as never) ?? [];

describe('large documents in the editor', () => {
  it('the adversarial YAML is scanned off the host thread: the event loop turns meanwhile, the key is found', async () => {
    setUp();
    const key = routerKey();
    const { input } = base64Triggers(key).build(900 << 10);
    expect(input.length).toBeGreaterThan(IN_LINE_SCAN);
    const doc = fakeDocument('/secret.yaml', input, 'yaml', 'untitled');
    const scanText = vi.mocked(scanner.scanText);
    scanText.mockClear();
    let turned = false;
    setImmediate(() => (turned = true));
    await diagnostics.full(doc as never);
    expect(turned).toBe(true);
    expect(scanText.mock.calls.filter(([text]) => text.length > IN_LINE_SCAN)).toEqual([]);
    expect(published(doc).map((d) => [d.code, d.range.start.line])).toEqual([['encoded-key', 2]]);
    expect(diagnostics.all(doc.uri as never).map((e) => e.finding.fingerprint)).toEqual([fingerprint(key)]);
  });

  it('a newer text replaces one not yet scanned: what is published is the latest', async () => {
    setUp();
    const [first, second, third] = [routerKey(), routerKey(), routerKey()];
    const big = (key: string) => `${'x = 1\n'.repeat(20_000)}k = "${key}"\n`;
    const docs = [first, second, third].map((key) => fakeDocument('/a.env', big(key), 'dotenv', 'untitled'));
    await Promise.all(docs.map((doc) => diagnostics.full(doc as never)));
    expect(diagnostics.all(docs[2]!.uri as never).map((e) => e.finding.fingerprint)).toEqual([fingerprint(third)]);
  });

  it('a document over keyward.scan.maxFileSizeKb is named, not scanned', async () => {
    setUp({ 'keyward.scan.maxFileSizeKb': 1 });
    const doc = fakeDocument('/big.env', `K=${routerKey()}\n${'#'.repeat(2048)}\n`, 'dotenv', 'untitled');
    await diagnostics.full(doc as never);
    const [notice, ...rest] = published(doc);
    expect(rest).toEqual([]);
    expect([notice!.code, notice!.severity]).toEqual([NOT_SCANNED_CODE, DiagnosticSeverity.Information]);
    expect(notice!.message).toContain('keyward.scan.maxFileSizeKb (1 KB)');
    expect(notice!.message).toContain('3 KB');
  });
});

describe("the scanner thread's stand-in", () => {
  it('answers nothing once disposed, also for a scan asked for while its driver loaded', async () => {
    const standIn = new ScanThreadOnDemand(resolve('src/core/scan/scanWorker.ts'));
    const text = `x ${routerKey()} y`;
    const asked = standIn.scan('a', text, {});
    standIn.dispose();
    expect(await asked).toBeUndefined();
    expect(await standIn.scan('a', text, {})).toBeUndefined();
    // Another stand-in scans: the thread it starts finds the key.
    const other = new ScanThreadOnDemand(resolve('src/core/scan/scanWorker.ts'));
    expect((await other.scan('b', text, {}))?.map((f) => f.ruleId)).toHaveLength(1);
    other.dispose();
  });
});
