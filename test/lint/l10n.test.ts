// Every string the host shows goes through vscode.l10n.t, and the bundles say what it shows. Two checks
// over the sources (the pseudo-locale run over the host is test/host/l10n.test.ts): the bundles
// `npm run l10n` writes are the ones committed, and no literal reaches a message, picker, input box or
// status-bar item without `t`. @vscode/l10n-dev extracts the same way (microsoft/vscode-l10n
// l10n-dev/src/ast/analyzer.ts) but only sees calls spelled `l10n.t(`.
import { readFileSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { bundles, hostStrings } from '../../scripts/l10n.ts';
import { isPseudoLocalised, pseudoLocalise, scanHostSource } from '../../scripts/l10nStrings.ts';

describe('runtime strings', () => {
  it('the committed l10n bundles are what `npm run l10n` writes', () => {
    for (const [file, text] of Object.entries(bundles())) {
      expect(readFileSync(file, 'utf8'), `${file} is out of date: run \`npm run l10n\` and commit it`).toBe(text);
    }
  });

  it('no string a person reads in the host skips vscode.l10n.t', () => {
    const lines = hostStrings().bypasses.map((b) => `${b.file}:${b.line}: ${b.text}`);
    expect(
      lines,
      'Wrap these in t(...) (const t = vscode.l10n.t), then `npm run l10n`; English on purpose: a comment `// l10n-ignore: <why>`',
    ).toEqual([]);
  });

  it("no literal the webview draws skips the host's strings (its s(key, english))", () => {
    const lines = readdirSync('src/webview')
      .filter((file) => file.endsWith('.ts'))
      .flatMap(
        (file) => scanHostSource(`src/webview/${file}`, readFileSync(`src/webview/${file}`, 'utf8'), ['s']).bypasses,
      )
      .map((b) => `${b.file}:${b.line}: ${b.text}`);
    expect(lines, "Draw text through s('key', 'English') and add the key to src/host/panelStrings.ts").toEqual([]);
  });

  it('names the messages taken from data, which the bundle reads from their tables', () => {
    // A new `t(variable)` must bring its English into the bundle: add its table to dataMessages() in
    // scripts/l10n.ts, then name the call here.
    const dynamic = hostStrings().dynamic.map((d) => `${d.file}: ${d.text}`);
    expect(dynamic).toEqual([
      'src/host/errorKindStrings.ts: vscode.l10n.t(rule.title)',
      'src/host/errorKindStrings.ts: vscode.l10n.t(rule.wait)',
      'src/host/keys/accountKeyCommands.ts: t(SERVICES[service].accountKey!.name)',
      'src/host/keys/keyCommands.ts: t(SERVICES[slot].keyPrompt)',
      'src/host/keys/keyCommands.ts: t(notice.message, ...notice.args.map((arg) => t(arg)))',
      'src/host/keys/keyCommands.ts: t(arg)',
      'src/host/keys/keyCommands.ts: t(notice.open.label)',
      'src/host/keys/stopFoundKey.ts: t(SERVICES[service].accountKey!.name)',
      'src/host/serviceNames.ts: t(SERVICES[service].displayName)',
      'src/host/serviceNames.ts: t(SERVICES[service].label)',
      'src/host/serviceNames.ts: t(SERVICES[service].shortLabel)',
      'src/host/status/statusActions.ts: t(found.label, ...found.args)',
      'src/host/status/statusActions.ts: t(found.description)',
      'src/host/status/statusBar.ts: vscode.l10n.t(SERVICES[service].statusBar.name)',
    ]);
  });

  it('the check finds a literal shown without t, in each place a person reads one', () => {
    const source = [
      "import * as vscode from 'vscode';",
      'const t = vscode.l10n.t;',
      "void vscode.window.showWarningMessage('The key was not stored.', t('Retry'));",
      "void vscode.window.showInformationMessage(t('Stored {0}.', name), 'Open Settings');",
      "void vscode.window.showQuickPick([{ label: 'Set key', description: t('stores it') }], { placeHolder: `Pick ${n}` });",
      "item.tooltip = ok ? t('All good') : 'Something failed';",
      "item.text = `$(key) ${t('Keyward')}`;",
      "item.name = 'Keyward';",
      "// l10n-ignore: the service's own tier names",
      "const tiers = [{ label: 'Free' }];",
      "void vscode.window.showInputBox({ prompt: vscode.l10n.t('Paste the key'), title: 'Set the key' });",
      "head.append(element('span', { textContent: `(HTTP ${status})` }), element('b', { textContent: 'Stopped' }));",
    ].join('\n');
    const found = scanHostSource('sample.ts', source);
    expect(found.bypasses.map((b) => `${b.line}: ${b.text}`)).toEqual([
      "3: 'The key was not stored.'",
      "4: 'Open Settings'",
      "5: 'Set key'",
      '5: `Pick ${n}`',
      "6: 'Something failed'",
      "11: 'Set the key'",
      "12: 'Stopped'",
    ]);
    expect(found.messages.map((m) => m.message)).toEqual([
      'Retry',
      'Stored {0}.',
      'stores it',
      'All good',
      'Keyward',
      'Paste the key',
    ]);
  });

  it('the pseudo-locale keeps placeholders and codicons, and marks every word', () => {
    expect(pseudoLocalise('$(key) Set {0} for the {name}')).toBe('［$(key) Şéţ {0} ƒóŕ ţĥé {name}］');
    expect(isPseudoLocalised(pseudoLocalise('Add credits'))).toBe(true);
    expect(isPseudoLocalised(`${pseudoLocalise('Add credits')} now`)).toBe(false);
    // An argument that skipped t shows inside a localised sentence.
    expect(isPseudoLocalised(pseudoLocalise('No key for the {0}.').replace('{0}', 'routing service'))).toBe(false);
    expect(isPseudoLocalised('$(key) 3.20 $')).toBe(true);
  });
});
