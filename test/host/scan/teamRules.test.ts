// Team rules in the editor, over the fake vscode: .keyward.toml at the repository root makes the team's own key
// shapes diagnostics as Keyward's own are (code = the rule's id, masked, graded by git state), in open documents and
// in Scan Workspace; each problem of the file is shown on its line (a refused rule as an Error, the others still
// run; an unsupported field as a Warning). Tokens are generated here, never committed.
import { randomBytes } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { scanUnopenedFile } from '../../../src/host/scan/unopenedFile.ts';
import { scanHistory } from '../../../src/host/scan/workspaceScan.ts';
import { Log } from '../../../src/host/log.ts';
import { makeRepo } from '../../cli/gitFixtures.ts';
import { type EditorParts, editorParts } from '../editorParts.ts';
import { DiagnosticSeverity, fakeDocument, fileUri } from '../fakeVscode.ts';
import { fake } from '../vscodeShim.ts';

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const gatewayToken = () => `acme_gw_${[...randomBytes(32)].map((b) => ALNUM[b % ALNUM.length]).join('')}`;

const RULES = `[[rules]]
id = "acme-gateway"
description = "ACME gateway token"
regex = '''acme_gw_[A-Za-z0-9]{32}'''
keywords = ["acme_gw_"]
`;

let parts: EditorParts;
afterEach(() => parts.dispose());

const teamProblems = () => fake.state.diagnosticCollections.find((c) => c.name === 'keyward-team-rules')!;

describe('.keyward.toml in the editor', () => {
  it("an open document's team token is a diagnostic with the rule's id as its code, masked", async () => {
    parts = editorParts();
    const repo = makeRepo();
    repo.write('.keyward.toml', RULES);
    const token = gatewayToken();
    const text = `export const gateway = "${token}";\n`;
    const doc = fakeDocument(repo.write('src/gateway.ts', text), text);
    await parts.diagnostics.full(doc as never);
    const [onToken, ...rest] = parts.collection.get(doc.uri as never) ?? [];
    expect(rest).toEqual([]);
    expect(onToken).toMatchObject({ code: 'acme-gateway', severity: DiagnosticSeverity.Warning });
    expect([onToken!.range.start.line, onToken!.range.start.character]).toEqual([0, 24]);
    expect(onToken!.message).toMatch(
      /^A secret your team's rule acme-gateway finds \(ACME gateway token\), acm…\w{4}\./,
    );
    expect(onToken!.message).not.toContain(token);
    expect(teamProblems().get(fileUri(join(repo.dir, '.keyward.toml')) as never)).toEqual([]);
  });

  it("the hover names the team rule, and shows the repository's description as text, never as Markdown", async () => {
    parts = editorParts();
    const repo = makeRepo();
    repo.write('.keyward.toml', RULES.replace('ACME gateway token', 'Gateway [docs](https://example.test/x) token'));
    const token = gatewayToken();
    const doc = fakeDocument(repo.write('app.js', `k = "${token}"\n`), `k = "${token}"\n`);
    await parts.diagnostics.full(doc as never);
    const [onToken] = parts.collection.get(doc.uri as never)!;
    const hover = (await parts.hover.provideHover(doc as never, onToken!.range.start as never))!;
    const shown = (hover.contents as unknown as { value: string }[]).map((c) => c.value).join('\n');
    expect(shown).toContain('\\[docs\\]\\(https://example\\.test/x\\)');
    expect(shown).not.toContain('[docs](');
    expect(shown).toContain('- Team rule: acme\\-gateway \\(\\.keyward\\.toml\\)\n');
    expect(shown).not.toContain(token);
  });

  it('a refused rule is an Error on its line and the other rules run; an unsupported field is a Warning', async () => {
    parts = editorParts();
    const repo = makeRepo();
    repo.write('.keyward.toml', `${RULES}path = '''\\.env$'''\n\n[[rules]]\nid = "slow"\nregex = '''(a+)+b'''\n`);
    const token = gatewayToken();
    const doc = fakeDocument(repo.write('app.js', `k = "${token}"\n`), `k = "${token}"\n`);
    await parts.diagnostics.full(doc as never);
    expect(parts.collection.get(doc.uri as never)!.map((d) => d.code)).toEqual(['acme-gateway']);
    const problems = teamProblems().get(fileUri(join(repo.dir, '.keyward.toml')) as never)!;
    expect(problems.map((d) => [d.range.start.line, d.severity])).toEqual([
      [5, DiagnosticSeverity.Warning],
      [9, DiagnosticSeverity.Error],
    ]);
    expect(problems[1]!.message).toMatch(
      /^This team rule does not run: rule "slow": regex refused at character 1: a repeat inside a repeat/,
    );
  });

  it('Scan Git History runs the team rules of the repository', async () => {
    parts = editorParts();
    const repo = makeRepo();
    repo.write('.keyward.toml', RULES);
    repo.write('deploy/gateway.env', `GATEWAY=${gatewayToken()}\n`);
    repo.git('add', '.');
    repo.git('commit', '-q', '-m', 'gateway');
    const workspace = fake.api.workspace as unknown as Record<string, unknown>;
    workspace.workspaceFolders = [{ uri: fileUri(repo.dir) }];
    try {
      const view = { show: async () => undefined };
      const outcome = await scanHistory(view as never, parts.diagnostics, new Log());
      expect(outcome.hits.map((h) => [h.path, h.line])).toEqual([['deploy/gateway.env', 0]]);
    } finally {
      workspace.workspaceFolders = undefined;
    }
  });

  it('Scan Workspace runs the team rules on files that are not open', async () => {
    parts = editorParts();
    const repo = makeRepo();
    repo.write('.keyward.toml', RULES);
    const file = repo.write('config/gateway.env', `GATEWAY=${gatewayToken()}\n`);
    const workspace = fake.api.workspace as unknown as Record<string, unknown>;
    workspace.fs = {
      stat: async (uri: { fsPath: string }) => ({ size: statSync(uri.fsPath).size }),
      readFile: async (uri: { fsPath: string }) => readFileSync(uri.fsPath),
    };
    try {
      expect(await scanUnopenedFile(parts.diagnostics, fileUri(file) as never, 1 << 20)).toEqual({
        findings: 1,
        suppressed: 0,
        notScanned: [],
      });
      expect(parts.collection.get(fileUri(file) as never)!.map((d) => d.code)).toEqual(['acme-gateway']);
    } finally {
      delete workspace.fs;
    }
  });
});
