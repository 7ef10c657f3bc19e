// Streaming overhead: 10,000 deltas from the emulator through the router client
// versus the same stream read raw with undici, alternating in one process.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { performance } from 'node:perf_hooks';
import { Agent, request } from 'undici';
import { ChatCompletionsClient } from '../src/core/wire/chatCompletionsClient.ts';
import { QUICK } from './quick.ts';
import { formatMs, median, verdict } from './stats.ts';
import { routerDescriptor } from '../src/core/services/routerDescriptor.ts';

const DELTAS = QUICK ? 200 : 10_000;
const RUNS = QUICK ? 1 : 15;

export async function benchStream(): Promise<string[]> {
  // The emulator runs in its own process, as a real service would: its work must
  // not be billed to the client on this thread.
  const child = spawn(process.execPath, ['test/emulator/main.ts', '--token-delay', '0', '--tokens', String(DELTAS)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const line = await new Promise<string>((resolve) => createInterface({ input: child.stdout! }).once('line', resolve));
  const started = JSON.parse(line) as { router: { baseUrl: string }; admin: string; keys: { routerFunded: string } };
  const emulator = { routerBaseUrl: started.router.baseUrl };
  const key = started.keys.routerFunded;
  const body = JSON.stringify({
    model: 'openrouter/free',
    messages: [{ role: 'user', content: 'bench' }],
    stream: true,
  });
  const agent = new Agent();
  const client = new ChatCompletionsClient({
    baseUrl: emulator.routerBaseUrl,
    profile: routerDescriptor,
    key,
    connectTimeoutMs: 5000,
    idleTimeoutMs: 30_000,
  });

  async function raw(): Promise<{ total: number; first: number }> {
    const start = performance.now();
    let first = 0;
    const response = await request(`${emulator.routerBaseUrl}/chat/completions`, {
      method: 'POST',
      dispatcher: agent,
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', accept: 'text/event-stream' },
      body,
    });
    for await (const chunk of response.body) {
      // The first chunk that carries a delta, not the keep-alive comment.
      if (first === 0 && (chunk as Buffer).includes('"content"')) first = performance.now() - start;
    }
    return { total: performance.now() - start, first };
  }

  async function viaClient(): Promise<{ total: number; first: number; deltas: number }> {
    const start = performance.now();
    let first = 0;
    let text = '';
    for await (const delta of client.chat({
      model: 'openrouter/free',
      messages: [{ role: 'user', content: 'bench' }],
    })) {
      if (text === '') first = performance.now() - start;
      text += delta;
    }
    // Every emulated token is one word: count them to be sure nothing was lost.
    return { total: performance.now() - start, first, deltas: text.split(' ').length };
  }

  // Free-model limits would stop a bench run: move the emulator's clock past the minute window.
  const reset = async () => {
    await fetch(`${started.admin}/clock`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"advance":"61s"}',
    });
  };
  for (let i = 0; i < (QUICK ? 1 : 3); i++) {
    await reset();
    await raw();
    await reset();
    await viaClient();
  }
  const rawRuns: { total: number; first: number }[] = [];
  const clientRuns: { total: number; first: number; deltas: number }[] = [];
  for (let i = 0; i < RUNS; i++) {
    await reset();
    rawRuns.push(await raw());
    await reset();
    clientRuns.push(await viaClient());
  }
  await client.close();
  await agent.close();
  child.kill('SIGTERM');
  if (clientRuns.some((r) => r.deltas !== DELTAS)) throw new Error('the client did not see every delta');

  const rawTotal = median(rawRuns.map((r) => r.total));
  const clientTotal = median(clientRuns.map((r) => r.total));
  const rawFirst = median(rawRuns.map((r) => r.first));
  const clientFirst = median(clientRuns.map((r) => r.first));
  const ratio = clientTotal / rawTotal;
  const added = clientFirst - rawFirst;
  return [
    `${DELTAS} deltas, median of ${RUNS} alternating runs: raw undici ${formatMs(rawTotal)}, router client ${formatMs(clientTotal)}`,
    `time ratio client/raw ${ratio.toFixed(3)}  target <= 1.10  ${verdict(ratio <= 1.1)}`,
    `time to first delta: raw ${formatMs(rawFirst)}, client ${formatMs(clientFirst)}, added ${formatMs(Math.max(0, added))}  target <= 1 ms  ${verdict(added <= 1)}`,
  ];
}
