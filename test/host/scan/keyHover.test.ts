// The hover over a flagged key, over the fake vscode: what it says and where it applies.
import { afterEach, describe, expect, it } from 'vitest';
import { scannerKeys } from '../../../src/core/keys/keyStore.ts';
import { createServer } from 'node:net';
import { scanText } from '../../../src/core/scan/scanner.ts';
import { KeyVerifier } from '../../../src/core/scan/verify.ts';
import { directKey, routerKey } from '../../emulator/keyFactory.ts';
import { type EditorParts, editorParts } from '../editorParts.ts';
import { type MarkdownString, Position, fakeDocument } from '../fakeVscode.ts';

let parts: EditorParts;
afterEach(() => parts.dispose());

function hoverText(hover: unknown): string {
  return (hover as { contents: MarkdownString[] }).contents.map((c) => c.value).join('\n');
}

describe('key hover', () => {
  it('over a key: the service, the masked key and fingerprint, git, stored or not, and what to do', async () => {
    parts = editorParts();
    const key = directKey('proj');
    const doc = fakeDocument('/w/app.py', `x = 1\nKEY = "${key}"\n`, 'python');
    parts.diagnostics.set(doc.uri as never, scanText(doc.getText()), 'tracked');
    const [entry] = parts.diagnostics.all(doc.uri as never);
    const hover = await parts.hover.provideHover(doc as never, new Position(1, 12) as never);
    expect((hover as unknown as { range: unknown }).range).toBe(entry!.range);
    const text = hoverText(hover);
    expect(text).toContain('**Keyward** · A direct service key, sk-proj-…');
    expect(text).toContain('- Service: direct service');
    expect(text).toContain(
      `- Key: \`${entry!.finding.masked}\` (fingerprint ${entry!.finding.fingerprint.slice(0, 8)})`,
    );
    expect(text).toContain('- Git: tracked');
    expect(text).toContain('- Stored in Keyward: no');
    expect(text).toMatch(/What to do: /);
    expect(text).not.toContain(key);
  });

  it('says "yes, this is your key" over the stored key, and nothing beside a key', async () => {
    parts = editorParts();
    const key = routerKey();
    await parts.keys.setKey('router', key);
    const doc = fakeDocument('/w/app.js', `const key = "${key}"; // here\n`);
    parts.diagnostics.set(doc.uri as never, scanText(doc.getText(), await scannerKeys(parts.keys)), 'untracked');
    expect(hoverText(await parts.hover.provideHover(doc as never, new Position(0, 20) as never))).toContain(
      '- Stored in Keyward: yes, this is your key',
    );
    expect(parts.hover.provideHover(doc as never, new Position(0, 5) as never)).toBeUndefined();
    expect(parts.hover.provideHover(doc as never, new Position(0, 13 + key.length + 4) as never)).toBeUndefined();
  });

  it('a check that could not reach the service reads "unknown" with the reason in the hover and the diagnostic', async () => {
    parts = editorParts();
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const { port } = probe.address() as { port: number };
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    // The verifier the editor's check uses (keyLivenessCheck.ts), with the service down.
    const verifier = new KeyVerifier({ baseUrls: { router: `http://127.0.0.1:${port}/api/v1` }, timeoutMs: 2000 });
    const key = routerKey();
    const doc = fakeDocument('/w/app.js', `const key = "${key}";\n`);
    parts.diagnostics.verificationOf = (fingerprint) => verifier.known(fingerprint);
    parts.diagnostics.set(doc.uri as never, scanText(doc.getText()), 'untracked');
    expect((await verifier.verify('router', key, true)).status).toBe('unknown');
    parts.diagnostics.reword();
    const text = hoverText(await parts.hover.provideHover(doc as never, new Position(0, 20) as never));
    expect(text).toMatch(/- Live: unknown: network: Could not reach the routing service/);
    expect(parts.collection.get(doc.uri as never)![0]!.message).toMatch(
      /Whether the key is live is unknown: network: /,
    );
    expect(text).not.toContain(key);
  });
});
