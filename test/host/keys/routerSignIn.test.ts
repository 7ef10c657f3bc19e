// Sign in to the Routing Service over the fake vscode API, with real HTTP to the emulator's /auth page and
// /auth/keys behind it: the test is the browser (the page's test mode answers as Allow or Deny would) and hands the
// callback to the URI handler as VS Code would.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AccountMonitor } from '../../../src/core/monitor/accountMonitor.ts';
import { KeyStore } from '../../../src/core/keys/keyStore.ts';
import { Configuration } from '../../../src/host/configuration.ts';
import { KeyCommands } from '../../../src/host/keys/keyCommands.ts';
import { RouterSignIn, browserAddress } from '../../../src/host/keys/routerSignIn.ts';
import { Log } from '../../../src/host/log.ts';
import { secretPort, statePort } from '../../../src/host/keys/secretPorts.ts';
import { type TestBed, startTestBed } from '../../emulator/adminClient.ts';
import { FakeMemento, FakeSecrets, UNANSWERED } from '../fakeVscode.ts';
import { fake } from '../vscodeShim.ts';

let bed: TestBed;
beforeAll(async () => {
  bed = await startTestBed({ sandbox: true });
});
afterAll(() => bed.close());

const SLOT = 'keyward.key.router';

function setup(baseUrl = bed.emulator.routerBaseUrl) {
  for (const list of [fake.state.messages, fake.state.answers, fake.state.opened, fake.state.logLines]) list.length = 0;
  fake.state.progress.length = 0;
  Object.assign(fake.state.settings, {
    'keyward.router.baseUrl': baseUrl,
    'keyward.status.refreshMinutes': 0,
  });
  const secrets = new FakeSecrets();
  const memento = new FakeMemento();
  const log = new Log();
  const configuration = new Configuration(log);
  const keys = new KeyStore(secretPort(secrets as never), statePort(memento as never));
  const monitor = new AccountMonitor({ keys, config: () => configuration.value, tier: () => 'free' as never });
  const commands = new KeyCommands(keys, monitor, configuration, log, memento as never);
  const signIn = new RouterSignIn(configuration, log, () => Promise.resolve(commands), 'keyward.keyward');
  return { secrets, keys, commands, signIn, dispose: () => (monitor.dispose(), configuration.dispose()) };
}

let s: ReturnType<typeof setup>;
beforeEach(async () => {
  await bed.admin('POST', '/reset', { sandbox: true });
  s?.dispose();
  s = setup();
});

/** The page the command opened, once it has opened one. */
async function openedPage(count = 1): Promise<string> {
  for (let i = 0; i < 500 && fake.state.opened.length < count; i++) await new Promise((r) => setTimeout(r, 10));
  return fake.state.opened[count - 1]!;
}

/** The browser: the page, a button, and the query of the URI VS Code then hands the handler. */
async function browser(page: string, decision: 'allow' | 'deny' = 'allow'): Promise<string> {
  const answer = await fetch(`${page}&emulator_approve=${decision}`, { redirect: 'manual' });
  const back = new URL(answer.headers.get('location')!);
  expect(`${back.protocol}//${back.host}${back.pathname}`).toBe('vscode://keyward.keyward/signin');
  return back.search.slice(1);
}

const callback = (query: string) => s.signIn.handleUri({ path: '/signin', query } as never);
const shown = () => fake.state.messages.map((m) => m.text).join('\n');

/** Nothing a person or the log sees holds the key. */
function neverShown(key: string) {
  expect(shown()).not.toContain(key);
  expect(fake.state.logLines.join('\n')).not.toContain(key);
  expect(fake.state.opened.join('\n')).not.toContain(key);
}

describe('Sign in to the Routing Service', () => {
  it('opens the page, takes the answer, stores a working key it never shows, and says so', async () => {
    const running = s.signIn.run();
    const page = await openedPage();
    expect(page.startsWith(`${bed.emulator.url}/router/auth?`)).toBe(true);
    const params = new URL(page).searchParams;
    expect(params.get('code_challenge_method')).toBe('S256');
    expect(params.get('callback_url')).toMatch(/^vscode:\/\/keyward\.keyward\/signin\?nonce=[\w-]{22}$/);
    expect(fake.state.progress.at(-1)).toMatch(/approve Keyward in the browser/);
    await callback(await browser(page));
    expect(await running).toBe(true);
    const key = s.secrets.values.get(SLOT)!;
    expect((await bed.router('/key', key)).status).toBe(200);
    expect(s.keys.metadata('router')).toMatchObject({
      label: 'Signed in from VS Code',
      lastVerifiedAt: expect.any(String),
    });
    expect(fake.state.messages.at(-1)).toMatchObject({
      level: 'info',
      text: expect.stringMatching(/^Signed in to the routing service/),
    });
    neverShown(key);
  });

  it("says it signed in while the check's own notice (with its button) still waits for the person", async () => {
    // The new key's account has no credit: the check's notice offers a button, and a real one waits for an answer.
    fake.state.answers.push(UNANSWERED);
    const running = s.signIn.run();
    await callback(await browser(await openedPage()));
    expect(await running).toBe(true);
    expect(fake.state.messages.map((m) => m.text)).toEqual([
      expect.any(String),
      expect.stringMatching(/^Signed in to the routing service/),
    ]);
  });

  it('refuses an answer this window did not start, keeps waiting, and leaves the stored key', async () => {
    await s.commands.setKey('router', { key: bed.emulator.sandbox!.keys.routerFunded, quiet: true });
    const running = s.signIn.run();
    const page = await openedPage();
    const query = new URLSearchParams(await browser(page));
    query.set('nonce', 'someone-elses');
    await callback(query.toString());
    expect(fake.state.messages.at(-1)).toMatchObject({
      level: 'error',
      text: expect.stringMatching(/ignored a sign-in answer that this window did not start/),
    });
    expect(s.secrets.values.get(SLOT)).toBe(bed.emulator.sandbox!.keys.routerFunded);
    // The real answer still signs in.
    await callback(await browser(page));
    expect(await running).toBe(true);
    expect(s.secrets.values.get(SLOT)).not.toBe(bed.emulator.sandbox!.keys.routerFunded);
  });

  it('refuses a code that comes back a second time, sending nothing', async () => {
    const running = s.signIn.run();
    const query = await browser(await openedPage());
    await callback(query);
    await running;
    const stored = s.secrets.values.get(SLOT);
    await callback(query);
    expect(fake.state.messages.at(-1)).toMatchObject({ level: 'error', text: expect.stringMatching(/already used/) });
    expect(bed.emulator.requests.filter((r) => r.path === '/auth/keys')).toHaveLength(1);
    expect(s.secrets.values.get(SLOT)).toBe(stored);
  });

  const endings: [string, (page: string) => Promise<void>, RegExp, { timeoutMs?: number }?][] = [
    [
      'times out',
      async () => undefined,
      /No answer came back from the browser in time\. Your stored key is unchanged\./,
      { timeoutMs: 100 },
    ],
    [
      'is cancelled from the progress notification',
      async () => fake.state.cancelProgress!(),
      /Sign-in cancelled\. Your stored key is unchanged\./,
    ],
    [
      'is denied on the page',
      async (page) => callback(await browser(page, 'deny')),
      /You chose Deny.*Your stored key is unchanged\./,
    ],
    [
      'is refused by the service',
      async (page) => {
        const query = new URLSearchParams(await browser(page));
        await bed.router('/auth/keys', undefined, { body: { code: query.get('code') } });
        await callback(query.toString());
      },
      /refused the sign-in: Invalid code or code_verifier Your stored key is unchanged\. .*Sign in again/,
    ],
  ];
  for (const [what, act, message, args] of endings)
    it(`${what}: says what to do and leaves the stored key as it was`, async () => {
      const before = bed.emulator.sandbox!.keys.routerFunded;
      await s.commands.setKey('router', { key: before, quiet: true });
      const running = s.signIn.run(args);
      await act(await openedPage());
      expect(await running).toBe(false);
      expect(fake.state.messages.at(-1)).toMatchObject({
        level: expect.stringMatching(/error|info/),
        text: expect.stringMatching(message),
      });
      expect(s.secrets.values.get(SLOT)).toBe(before);
      neverShown(before);
    });

  it('cannot reach the service: says so, and the stored key stays', async () => {
    const before = bed.emulator.sandbox!.keys.routerFunded;
    await s.commands.setKey('router', { key: before, quiet: true });
    const running = s.signIn.run();
    const query = await browser(await openedPage());
    await bed.admin('POST', '/faults', { kind: 'reset', service: 'router', path: '/auth/keys', beforeHeaders: true });
    await callback(query);
    expect(await running).toBe(false);
    expect(fake.state.messages.at(-1)).toMatchObject({
      level: 'error',
      text: expect.stringMatching(
        /Could not reach the routing service to finish signing in: .*Your stored key is unchanged\./,
      ),
    });
    expect(s.secrets.values.get(SLOT)).toBe(before);
  });

  it('refuses a base URL without a sign-in page and offers Set Key', async () => {
    s.dispose();
    s = setup(`${bed.emulator.url}/router/v1`);
    expect(await s.signIn.run()).toBe(false);
    expect(fake.state.opened).toEqual([]);
    expect(fake.state.messages.at(-1)).toMatchObject({
      level: 'error',
      items: ['Set Key'],
      text: expect.stringMatching(/end in \/api\/v1/),
    });
  });
});

describe('the callback address the browser opens', () => {
  it("keeps code-server's address, whose path holds its own query, as the browser must open it", () => {
    // As code-server 4.139's asExternalUri gave it in the real-host step: toString() made it "callback%3F…" (404).
    const path = '/stable-53c2/callback?vscode-reqid=1&vscode-scheme=code-oss&vscode-authority=keyward.keyward';
    const uri = { scheme: 'http', authority: '127.0.0.1:41943', path, query: '', fragment: '' };
    expect(browserAddress(uri as never)).toBe(`http://127.0.0.1:41943${path}`);
    const desktop = {
      scheme: 'vscode',
      authority: 'keyward.keyward',
      path: '/signin',
      query: 'nonce=abc',
      fragment: '',
    };
    expect(browserAddress(desktop as never)).toBe('vscode://keyward.keyward/signin?nonce=abc');
  });
});
