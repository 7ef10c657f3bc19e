// The pseudo-locale run: the fake loads l10n/bundle.l10n.qps-ploc.json as VS Code loads a locale's bundle,
// and what the host shows must come out accented and bracketed. A string that skipped vscode.l10n.t, or
// that `npm run l10n` has not put in the bundle yet, shows as plain English and fails here.
import { readFileSync, readdirSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AccountMonitor } from '../../src/core/monitor/accountMonitor.ts';
import { KeyStore } from '../../src/core/keys/keyStore.ts';
import { Configuration } from '../../src/host/configuration.ts';
import { KeyCommands } from '../../src/host/keys/keyCommands.ts';
import { Log } from '../../src/host/log.ts';
import { panelStrings } from '../../src/host/chat/panelStrings.ts';
import { secretPort, statePort } from '../../src/host/keys/secretPorts.ts';
import { StatusBar } from '../../src/host/status/statusBar.ts';
import { isPseudoLocalised } from '../../scripts/l10nStrings.ts';
import { FakeMemento, FakeSecrets } from './fakeVscode.ts';
import { fake } from './vscodeShim.ts';

const pseudo = JSON.parse(readFileSync('l10n/bundle.l10n.qps-ploc.json', 'utf8')) as Record<string, string>;

beforeEach(() => {
  fake.state.l10nBundle = pseudo;
  fake.state.messages.length = 0;
  fake.state.statusItems.length = 0;
  fake.state.settings['keyward.status.refreshMinutes'] = 0;
});
afterEach(() => {
  fake.state.l10nBundle = null;
});

const english = (entries: [string, string | undefined][]) =>
  entries
    .filter(([, text]) => text !== undefined && !isPseudoLocalised(text))
    .map(([where, text]) => `${where}: ${text}`);

function host() {
  const log = new Log();
  const configuration = new Configuration(log);
  const memento = new FakeMemento();
  const keys = new KeyStore(secretPort(new FakeSecrets() as never), statePort(memento as never));
  const monitor = new AccountMonitor({
    keys,
    config: () => configuration.value,
    tier: () => configuration.value.direct.usageTier,
  });
  return { log, configuration, memento, keys, monitor };
}

describe('the pseudo-locale', () => {
  it("localises every string the chat's webview shows (panelStrings)", () => {
    expect(english(Object.entries(panelStrings()))).toEqual([]);
  });

  it("has a host string for every key the webview's s(key, english) asks for", () => {
    // A key the host does not send shows the webview's English fallback in every locale.
    const sent = new Set(Object.keys(panelStrings()));
    const asked = readdirSync('src/webview')
      .filter((file) => file.endsWith('.ts'))
      .flatMap((file) =>
        [...readFileSync(`src/webview/${file}`, 'utf8').matchAll(/\bs\(\s*'([^']+)'/g)].map((m) => `${file}: ${m[1]}`),
      );
    expect(asked.length).toBeGreaterThan(40);
    expect(asked.filter((entry) => !sent.has(entry.split(': ')[1]!))).toEqual([]);
  });

  it('localises the status-bar items, their names and tooltips, with no key stored', () => {
    const { configuration, keys, monitor } = host();
    const bar = new StatusBar(monitor, keys, configuration);
    const shown = fake.state.statusItems.flatMap((item): [string, string | undefined][] => [
      [`${item.id} name`, item.name],
      [`${item.id} tooltip`, typeof item.tooltip === 'string' ? item.tooltip : item.tooltip?.value],
    ]);
    expect(shown.length).toBeGreaterThan(0);
    expect(english(shown)).toEqual([]);
    bar.dispose();
    monitor.dispose();
    configuration.dispose();
  });

  it('localises what Import Keys from the Environment says when no variable is set', async () => {
    const { log, configuration, memento, keys, monitor } = host();
    const commands = new KeyCommands(keys, monitor, configuration, log, memento as never);
    await commands.importFromEnvironment({});
    expect(fake.state.messages).toHaveLength(1);
    // The variable names it lists are names, not words to translate.
    const text = fake.state.messages[0]!.text.replace(/\b[A-Z][A-Z0-9_]+\b/g, '');
    expect(english([['message', text]])).toEqual([]);
    monitor.dispose();
    configuration.dispose();
  });
});
