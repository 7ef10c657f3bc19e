// A language-model request from VS Code (host/lm/chatProvider.ts) against the chat's own path: the time to the first
// delta through runPrompt with the chat's turns, and through what the provider adds before the same call (reading
// the stored keys, the secret guard over every message part, the daily spend cap's check, the wire mapping of
// messages and a tool). Same
// emulator, alternating, in one process. The vscode layer itself (part classes, progress.report) is not in this
// process; it adds an object per delta.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { performance } from 'node:perf_hooks';
import { AccountMonitor } from '../src/core/monitor/accountMonitor.ts';
import { DEFAULT_CONFIG } from '../src/core/config.ts';
import { KeyStore, scannerKeys } from '../src/core/keys/keyStore.ts';
import type { LmMessage } from '../src/core/lm/messages.ts';
import { keysInMessages } from '../src/core/guards/outgoingGuard.ts';
import { runPrompt } from '../src/core/chat/promptRunner.ts';
import { SpendLedger } from '../src/core/account/spendLedger.ts';
import { QUICK } from './quick.ts';
import { formatMs, median, verdict } from './stats.ts';

const RUNS = QUICK ? 2 : 25;
const MODEL = 'openai/gpt-4o-mini';

export async function benchProviderFirstToken(): Promise<string[]> {
  const child = spawn(process.execPath, ['test/emulator/main.ts', '--token-delay', '0', '--tokens', '50'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const line = await new Promise<string>((resolve) => createInterface({ input: child.stdout! }).once('line', resolve));
  const started = JSON.parse(line) as { router: { baseUrl: string }; keys: { routerFunded: string } };
  const secrets = new Map<string, string>();
  const state = new Map<string, unknown>();
  const keys = new KeyStore(
    {
      get: async (name) => secrets.get(name),
      store: async (name, value) => void secrets.set(name, value),
      delete: async (name) => void secrets.delete(name),
    },
    {
      get: <T>(name: string) => state.get(name) as T | undefined,
      update: async (name, value) => void state.set(name, value),
    },
  );
  await keys.setKey('router', started.keys.routerFunded);
  const config = { ...DEFAULT_CONFIG, router: { ...DEFAULT_CONFIG.router, baseUrl: started.router.baseUrl } };
  const monitor = new AccountMonitor({ keys, config: () => config, tier: () => config.direct.usageTier });
  // A cap that is set and not reached: the provider reads today's spend before every request.
  let spendDay: unknown = { day: new Date().toISOString().slice(0, 10), totalUsd: 0.5, byService: { router: 0.5 } };
  const ledger = new SpendLedger({ get: () => spendDay, set: async (day) => void (spendDay = day) });

  const prompt = 'bench the first token of an answer';
  // A conversation as an agent sends it: earlier turns, a tool call and its result.
  const messages: LmMessage[] = [
    { role: 'user', parts: [{ kind: 'text', text: 'Which files mention the budget?' }] },
    { role: 'assistant', parts: [{ kind: 'toolCall', callId: 'c1', name: 'search', input: { query: 'budget' } }] },
    { role: 'user', parts: [{ kind: 'toolResult', callId: 'c1', text: 'src/fees.ts\nsrc/freeGuard.ts\n'.repeat(20) }] },
    { role: 'user', parts: [{ kind: 'text', text: prompt }] },
  ];
  const tools = [{ name: 'search', description: 'Searches the workspace', inputSchema: { type: 'object' } }];

  async function chat(): Promise<number> {
    const start = performance.now();
    let first = 0;
    await runPrompt(
      monitor,
      { service: 'router', model: MODEL, turns: [{ role: 'user', content: prompt }] },
      { onDelta: () => void (first ||= performance.now() - start) },
    );
    return first;
  }

  async function provider(): Promise<number> {
    const start = performance.now();
    let first = 0;
    const found = keysInMessages(messages, await scannerKeys(keys));
    if (found.length > 0) throw new Error('the bench conversation holds a key');
    if (ledger.reached(1000)) throw new Error('the bench spend cap is reached');
    await runPrompt(
      monitor,
      { service: 'router', model: MODEL, turns: [], messages, tools, toolChoice: 'auto' },
      { onDelta: () => void (first ||= performance.now() - start) },
    );
    return first;
  }

  for (let i = 0; i < (QUICK ? 1 : 5); i++) {
    await chat();
    await provider();
  }
  const chatRuns: number[] = [];
  const providerRuns: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    chatRuns.push(await chat());
    providerRuns.push(await provider());
  }
  monitor.dispose();
  child.kill('SIGTERM');
  const chatFirst = median(chatRuns);
  const providerFirst = median(providerRuns);
  const added = providerFirst - chatFirst;
  return [
    `time to first delta, median of ${RUNS} alternating runs: chat ${formatMs(chatFirst)}, provider ${formatMs(providerFirst)}`,
    `provider added ${formatMs(Math.max(0, added))}  target <= 5 ms  ${verdict(added <= 5)}`,
  ];
}
