// The extension loads its lean undici (Agent + request only) from dist/undici.js;
// it must behave like undici's own request() for what the clients use.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestBed, startTestBed } from '../emulator/adminClient.ts';

const require = createRequire(import.meta.url);
const lean = require('../../src/core/undiciLean.cjs') as typeof import('undici');

let bed: TestBed;
beforeAll(async () => {
  bed = await startTestBed({ sandbox: true });
});
afterAll(() => bed.close());

describe('lean undici', () => {
  it('sends a request with headers, a query string and a body, and streams the answer', async () => {
    const agent = new lean.Agent({ connect: { timeout: 1000 }, headersTimeout: 2000, bodyTimeout: 2000 });
    const models = await lean.request(`${bed.emulator.directBaseUrl}/models?x=1`, {
      method: 'GET',
      headers: { authorization: `Bearer ${bed.emulator.sandbox!.keys.direct}` },
      dispatcher: agent,
    });
    expect(models.statusCode).toBe(200);
    expect(((await models.body.json()) as { object: string }).object).toBe('list');
    const chat = await lean.request(`${bed.emulator.routerBaseUrl}/chat/completions`, {
      method: 'POST',
      dispatcher: agent,
      headers: {
        authorization: `Bearer ${bed.emulator.sandbox!.keys.routerFunded}`,
        'content-type': 'application/json',
      },
      body: JSON.stringify({ model: 'openrouter/free', messages: [{ role: 'user', content: 'lean' }], stream: true }),
    });
    let text = '';
    for await (const chunk of chat.body) text += chunk.toString();
    expect(text).toContain('data: [DONE]');
    await agent.close();
  });

  it('times out a stalled body', async () => {
    const agent = new lean.Agent({ connect: { timeout: 1000 }, headersTimeout: 2000, bodyTimeout: 200 });
    const response = await lean.request(`${bed.emulator.routerBaseUrl}/chat/completions`, {
      method: 'POST',
      dispatcher: agent,
      headers: {
        authorization: `Bearer ${bed.emulator.sandbox!.keys.routerFunded}`,
        'content-type': 'application/json',
        'x-emulator-fault': 'stall;afterChunks=1',
      },
      body: JSON.stringify({ model: 'openrouter/free', messages: [{ role: 'user', content: 'x' }], stream: true }),
    });
    await expect(
      (async () => {
        for await (const _ of response.body);
      })(),
    ).rejects.toMatchObject({ code: 'UND_ERR_BODY_TIMEOUT' });
    await agent.close();
  });

  // The bundle the extension loads is built with undici's own `esbuildDetection` define, which leaves out
  // the experimental Milo parser: the HTTP/1 parser it keeps (llhttp) must still read answers and streams.
  it('the built dist/undici.js (no Milo) reads an answer and a stream', async () => {
    const built = require('../../dist/undici.js') as typeof import('undici');
    // The parser ships as the binary of llhttp's portable build beside the bundle, not as base64 inside it, and not
    // its SIMD build (esbuild.js: undici falls back to the portable one when the SIMD one does not load).
    expect(readFileSync('dist/undici.js', 'utf8').match(/[A-Za-z0-9+/=]{20000,}/g)).toBeNull();
    expect(readFileSync('dist/llhttp.wasm')).toEqual(require('undici/lib/llhttp/llhttp-wasm.js'));
    expect(require('undici/lib/llhttp/llhttp_simd-wasm.js')).not.toEqual(require('undici/lib/llhttp/llhttp-wasm.js'));
    const agent = new built.Agent({ connect: { timeout: 1000 }, headersTimeout: 2000, bodyTimeout: 2000 });
    const models = await built.request(`${bed.emulator.directBaseUrl}/models`, {
      method: 'GET',
      headers: { authorization: `Bearer ${bed.emulator.sandbox!.keys.direct}` },
      dispatcher: agent,
    });
    expect(models.statusCode).toBe(200);
    expect(((await models.body.json()) as { object: string }).object).toBe('list');
    const chat = await built.request(`${bed.emulator.routerBaseUrl}/chat/completions`, {
      method: 'POST',
      dispatcher: agent,
      headers: {
        authorization: `Bearer ${bed.emulator.sandbox!.keys.routerFunded}`,
        'content-type': 'application/json',
      },
      body: JSON.stringify({ model: 'openrouter/free', messages: [{ role: 'user', content: 'built' }], stream: true }),
    });
    let text = '';
    for await (const chunk of chat.body) text += chunk.toString();
    expect(text).toContain('data: [DONE]');
    await agent.close();
  });

  // The built bundle leaves out fetch's FormData body code and WebIDL (esbuild.js, noFormData), and the lean undici the
  // dispatcher calls nothing uses (stream, pipeline, upgrade): a FormData body is refused as undici's own refuses it.
  it("the built dist/undici.js refuses a FormData body as undici does, without fetch's body code", async () => {
    const built = require('../../dist/undici.js') as typeof import('undici');
    const text = readFileSync('dist/undici.js', 'utf8');
    expect(text).not.toContain('could not be converted to');
    expect(Object.keys(built).sort()).toEqual(['Agent', 'EnvHttpProxyAgent', 'request']);
    const dispatcher = built.Agent.prototype as unknown as Record<string, unknown>;
    expect(typeof dispatcher.request).toBe('function');
    // The proxy agent opens its CONNECT tunnel with connect().
    expect(typeof dispatcher.connect).toBe('function');
    for (const unused of ['stream', 'pipeline', 'upgrade']) expect(dispatcher[unused]).toBeUndefined();
    // Node's own FormData: undici takes only its own, which the lean undici does not export.
    const body = new FormData() as unknown as import('undici').FormData;
    const refusal = async (undici: typeof import('undici')) => {
      const agent = new undici.Agent();
      const error = await undici
        .request(`${bed.emulator.directBaseUrl}/models`, { method: 'POST', body, dispatcher: agent })
        .then(
          () => undefined,
          (e: unknown) => e as { code: string; message: string },
        );
      await agent.close();
      return error && { code: error.code, message: error.message };
    };
    const own = await refusal(require('undici') as typeof import('undici'));
    expect(own?.code).toBe('UND_ERR_INVALID_ARG');
    expect(await refusal(built)).toEqual(own);
  });
});
