// Other providers' keys, split keys and encoded keys in the editor, over the fake vscode
// (issue 23, parts 1 and 3): a diagnostic with the rule as code and the owner named, a hover
// that says whose key it is, and quick fixes that fit: move to .env under the provider's own
// variable, rotate on the provider's page, never store it in Keyward nor ask a service about
// it; a split or encoded key, which is not the text under the mark, is never "moved".
import { afterEach, describe, expect, it } from 'vitest';
import { PROVIDER_RULES, PROVIDERS } from '../../../src/core/scan/providerRules.ts';
import { scanText } from '../../../src/core/scan/scanner.ts';
import type { FileState } from '../../../src/host/scan/keyDiagnostics.ts';
import { FixCommand } from '../../../src/host/scan/fixCommands.ts';
import { KeyLiveness } from '../../../src/host/scan/keyLiveness.ts';
import { PROVIDER_KEY_RULES, providerKey, routerKey } from '../../emulator/keyFactory.ts';
import { type EditorParts, editorParts } from '../editorParts.ts';
import { Diagnostic, DiagnosticSeverity, type MarkdownString, Position, fakeDocument } from '../fakeVscode.ts';

let parts: EditorParts;
afterEach(() => parts.dispose());

type Doc = ReturnType<typeof fakeDocument>;

async function fixesFor(doc: Doc, state: FileState) {
  parts.diagnostics.set(doc.uri as never, scanText(doc.getText(), parts.diagnostics.scanOptions()), state);
  const published = parts.collection.get(doc.uri as never)!;
  const diagnostics = published.map((d) => Object.assign(new Diagnostic(d.range, d.message, d.severity), d));
  return await parts.fixes.provideCodeActions(
    doc as never,
    diagnostics[0]!.range as never,
    {
      diagnostics: diagnostics.slice(0, 1),
    } as never,
  );
}

describe('other providers in the editor', () => {
  it.each(PROVIDER_KEY_RULES)('%s: marked exactly, named by its owner, the key never in the message', async (rule) => {
    parts = editorParts();
    const key = providerKey(rule);
    const doc = fakeDocument('/untitled-1', `// config\nconst a = "${key}";\n`, 'javascript', 'untitled');
    await parts.diagnostics.full(doc as never);
    const [diagnostic, ...rest] = parts.collection.get(doc.uri as never)!;
    expect(rest).toEqual([]);
    // An admin key manages an organization: an Error wherever it is (issue 33); the others by where git stands.
    expect([diagnostic!.code, diagnostic!.source, diagnostic!.severity]).toEqual([
      rule,
      'Keyward',
      rule === 'anthropic-admin-key' ? DiagnosticSeverity.Error : DiagnosticSeverity.Warning,
    ]);
    expect(doc.getText(diagnostic!.range)).toBe(key);
    const owner = PROVIDERS[PROVIDER_RULES[rule].provider].title;
    expect(diagnostic!.message).toMatch(new RegExp(`^(Probably a|A) key of ${owner}, .*…${key.slice(-4)}\\.`));
    expect(diagnostic!.message).not.toContain(key);
  });

  it('the hover names the provider; the fixes move the key to .env under its variable and rotate on its page', async () => {
    parts = editorParts();
    const key = providerKey('anthropic-key');
    const doc = fakeDocument('/w/app.py', `client = Anthropic(api_key="${key}")\n`, 'python');
    const actions = await fixesFor(doc, 'untracked');
    expect(actions.map((a) => a.title)).toEqual([
      'Read ANTHROPIC_API_KEY from the environment and move the key to .env',
      'Add /w/app.py to .gitignore',
      'Ignore this line (keyward-ignore)',
      'Rotate this key at Anthropic',
    ]);
    expect(actions[0]!.command).toMatchObject({ command: FixCommand.moveToEnv });
    expect(actions[3]!.command).toMatchObject({ command: 'vscode.open' });
    expect(String((actions[3]!.command!.arguments as unknown[])[0])).toBe(PROVIDERS.anthropic.keysPage);
    // Nothing offers to store another provider's key in Keyward's slots.
    expect(actions.some((a) => a.command?.command === FixCommand.storeAndRemove)).toBe(false);

    const hover = await parts.hover.provideHover(doc as never, new Position(0, 30) as never);
    const text = (hover as unknown as { contents: MarkdownString[] }).contents.map((c) => c.value).join('\n');
    expect(text).toContain('**Keyward** · A key of Anthropic, sk-ant-api03-…');
    expect(text).toContain('- Service: Anthropic');
    expect(text).toContain('- Live: not checked (Keyward sends no key to another provider)');
    expect(text).not.toContain(key);
    // No liveness check is offered for it: the key would have to be sent to someone.
    const [diagnostic] = parts.collection.get(doc.uri as never)!;
    const liveness = new KeyLiveness(parts.diagnostics, parts.configuration);
    const context = { diagnostics: [diagnostic] } as never;
    expect(await liveness.provideCodeActions(doc as never, diagnostic!.range as never, context)).toEqual([]);
    // As a routing service key beside it still gets the check.
    const own = fakeDocument('/w/own.py', `KEY = "${routerKey()}"\n`, 'python');
    await fixesFor(own, 'untracked');
    const [ownDiagnostic] = parts.collection.get(own.uri as never)!;
    const ownContext = { diagnostics: [ownDiagnostic] } as never;
    expect(await liveness.provideCodeActions(own as never, ownDiagnostic!.range as never, ownContext)).toHaveLength(1);
    liveness.dispose();
  });

  it('Gemini keys go to GEMINI_API_KEY, Hugging Face tokens to HF_TOKEN, in a .env-reading language', async () => {
    parts = editorParts();
    for (const [rule, name] of [
      ['google-api-key', 'GEMINI_API_KEY'],
      ['huggingface-token', 'HF_TOKEN'],
      ['replicate-token', 'REPLICATE_API_TOKEN'],
    ] as const) {
      const doc = fakeDocument(`/w/${rule}.ts`, `const k = '${providerKey(rule)}';\n`, 'typescript');
      expect((await fixesFor(doc, 'untracked'))[0]!.title).toBe(
        `Read ${name} from the environment and move the key to .env`,
      );
    }
  });

  it('a split key is marked over its pieces; it can be ignored or rotated, not moved or stored', async () => {
    parts = editorParts();
    const key = routerKey();
    const text = `const k = '${key.slice(0, 20)}' +\n  '${key.slice(20)}';\n`;
    const doc = fakeDocument('/w/split.js', text, 'javascript');
    const actions = await fixesFor(doc, 'untracked');
    const [diagnostic] = parts.collection.get(doc.uri as never)!;
    expect(diagnostic!.code).toBe('split-key');
    expect([diagnostic!.range.start.line, diagnostic!.range.end.line]).toEqual([0, 1]);
    expect(diagnostic!.message).toMatch(
      /^Probably a routing service key, sk-or-v1-….* It is assembled from string pieces\./,
    );
    expect(actions.map((a) => a.title)).toEqual([
      'Add /w/split.js to .gitignore',
      'Ignore this line (keyward-ignore)',
      'Rotate this key at the routing service',
    ]);
    // Invoked anyway (a stale menu, a keybinding): it refuses rather than move the text under the mark.
    const entry = parts.diagnostics.all(doc.uri as never)[0]!;
    expect(await parts.fixes.moveToEnv(doc.uri as never, entry.range as never)).toBe(false);
    expect(doc.getText()).toBe(text);
  });

  // Issue 35: a key continued inside a value. An appended comment would land in the value (a YAML double-quoted
  // scalar) or end the continuation, so no "Ignore this line" is offered; a quoted split still has it.
  it('a key continued over lines is marked over its pieces, and no comment is offered inside its value', async () => {
    parts = editorParts();
    const key = routerKey();
    const text = `env:\n  key: "${key.slice(0, 30)}\\\n    ${key.slice(30)}"\n`;
    const doc = fakeDocument('/w/values.yaml', text, 'yaml');
    const actions = await fixesFor(doc, 'untracked');
    const [diagnostic] = parts.collection.get(doc.uri as never)!;
    expect(diagnostic!.code).toBe('split-key');
    expect([diagnostic!.range.start.line, diagnostic!.range.start.character, diagnostic!.range.end.line]).toEqual([
      1, 8, 2,
    ]);
    expect(actions.map((a) => a.title)).toEqual([
      'Add /w/values.yaml to .gitignore',
      'Rotate this key at the routing service',
    ]);
    const wrapped = fakeDocument('/w/README.md', `Use ${key.slice(0, 40)}\n${key.slice(40)} here.\n`, 'markdown');
    expect((await fixesFor(wrapped, 'untracked')).map((a) => a.title)).not.toContain(
      'Ignore this line (keyward-ignore)',
    );
  });

  it('a key in a Secret’s base64 is marked at the encoded text and says so', async () => {
    parts = editorParts();
    const key = providerKey('groq-key');
    const encoded = Buffer.from(key).toString('base64');
    const doc = fakeDocument('/w/secret.yaml', `kind: Secret\ndata:\n  GROQ_API_KEY: ${encoded}\n`, 'yaml');
    const actions = await fixesFor(doc, 'untracked');
    const [diagnostic] = parts.collection.get(doc.uri as never)!;
    expect(diagnostic!.code).toBe('encoded-key');
    expect(doc.getText(diagnostic!.range)).toBe(encoded);
    expect(diagnostic!.message).toMatch(/^A key of Groq, gsk_….* It is encoded in base64 here\./);
    expect(actions.map((a) => a.title)).not.toContain(
      'Read GROQ_API_KEY from the environment and move the key to .env',
    );
  });
});
