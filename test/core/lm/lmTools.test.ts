// Language-model requests through the service modules (the path VS Code's requests take, host/lm/chatProvider.ts):
// messages with tool calls, tool results and per-model settings mapped to both wire families, sent over HTTP to the
// emulator, and the model's tool calls read back from streamed and whole answers. The emulator records each body,
// so the tests assert what went on the wire, not what a mock was handed. Wire shapes as the official SDKs type
// them: openai `resources/chat/completions/completions.d.ts` and `resources/responses/responses.d.ts`.
import { describe, expect, it } from 'vitest';
import type { LmMessage, LmTool } from '../../../src/core/lm/messages.ts';
import { describeLocations, keysInMessages } from '../../../src/core/guards/outgoingGuard.ts';
import { estimateMessageTokens, estimateTextTokens } from '../../../src/core/lm/tokenEstimate.ts';
import { directOptions } from '../../../src/core/wire/modelOptions.ts';
import { serviceModule } from '../../../src/core/services/registry.ts';
import type { PromptInput } from '../../../src/core/services/module.ts';
import { applicableSettings } from '../../../src/shared/modelSettings.ts';
import type { ServiceId } from '../../../src/shared/serviceIds.ts';
import { sandboxBed } from '../../emulator/sandboxBed.ts';
import { routerKey } from '../../emulator/keyFactory.ts';
import { FAST, settle } from '../clientSupport.ts';

const sandbox = sandboxBed();

const WEATHER: LmTool = {
  name: 'get_weather',
  description: 'The weather in a city',
  inputSchema: { type: 'object', properties: { prompt: { type: 'string' } } },
};

const cases: { service: ServiceId; model: string; key: () => string; baseUrl: () => string }[] = [
  {
    service: 'router',
    model: 'openai/gpt-4o-mini',
    key: () => sandbox.keys.routerFunded,
    baseUrl: () => sandbox.bed.emulator.routerBaseUrl,
  },
  {
    service: 'direct',
    model: 'gpt-4o-mini',
    key: () => sandbox.keys.direct,
    baseUrl: () => sandbox.bed.emulator.directBaseUrl,
  },
];

async function send(c: (typeof cases)[number], input: Omit<PromptInput, 'model' | 'turns'>, stream = true) {
  const module = serviceModule(c.service);
  const client = await module.open({ baseUrl: c.baseUrl(), key: c.key(), ...FAST });
  return settle(module.prompt(client, { model: c.model, turns: [], ...input }, { stream }));
}

const lastBody = () => sandbox.bed.emulator.requests.filter((r) => r.body).at(-1)!.body!;

describe.each(cases)('language-model requests: $service', (c) => {
  for (const stream of [true, false])
    it(`reads the tool call the model makes, and answers its result (stream ${stream})`, async () => {
      const ask: LmMessage = { role: 'user', parts: [{ kind: 'text', text: 'Weather in Lyon? [[tool]]' }] };
      const first = await send(c, { messages: [ask], tools: [WEATHER], toolChoice: 'auto' }, stream);
      expect(first.error).toBeUndefined();
      expect(first.text).toBe('');
      const [call] = first.result!.toolCalls!;
      expect(call).toMatchObject({ name: 'get_weather', input: { prompt: 'Weather in Lyon?' } });
      expect(call!.callId).not.toBe('');

      const followUp: LmMessage[] = [
        ask,
        {
          role: 'assistant',
          parts: [{ kind: 'toolCall', callId: call!.callId, name: call!.name, input: call!.input }],
        },
        { role: 'user', parts: [{ kind: 'toolResult', callId: call!.callId, text: 'sunny, 21 °C' }] },
      ];
      const second = await send(c, { messages: followUp, tools: [WEATHER] }, stream);
      expect(second.error).toBeUndefined();
      expect(second.text).toBe('The tool said: sunny, 21 °C');
      expect(second.result!.toolCalls).toBeUndefined();

      // What went on the wire, in the family's own shape.
      const body = lastBody();
      if (c.service === 'router') {
        expect(body.tools).toEqual([
          {
            type: 'function',
            function: { name: 'get_weather', description: WEATHER.description, parameters: WEATHER.inputSchema },
          },
        ]);
        expect(body.messages).toEqual([
          { role: 'user', content: 'Weather in Lyon? [[tool]]' },
          {
            role: 'assistant',
            content: null,
            tool_calls: [
              {
                id: call!.callId,
                type: 'function',
                function: { name: 'get_weather', arguments: JSON.stringify(call!.input) },
              },
            ],
          },
          { role: 'tool', tool_call_id: call!.callId, content: 'sunny, 21 °C' },
        ]);
      } else {
        expect(body.tools).toEqual([
          {
            type: 'function',
            name: 'get_weather',
            description: WEATHER.description,
            parameters: WEATHER.inputSchema,
            strict: false,
          },
        ]);
        expect(body.input).toEqual([
          { role: 'user', content: 'Weather in Lyon? [[tool]]' },
          { type: 'function_call', call_id: call!.callId, name: 'get_weather', arguments: JSON.stringify(call!.input) },
          { type: 'function_call_output', call_id: call!.callId, output: 'sunny, 21 °C' },
        ]);
      }
    });

  it('sends an image part as a data URL', async () => {
    const image: LmMessage = {
      role: 'user',
      parts: [
        { kind: 'text', text: 'What is this?' },
        { kind: 'image', mimeType: 'image/png', base64: 'iVBORw0KGgo=' },
      ],
    };
    const answer = await send(c.service === 'router' ? { ...c, model: 'openai/gpt-4o' } : c, { messages: [image] });
    expect(answer.error).toBeUndefined();
    const content = (c.service === 'router' ? lastBody().messages : lastBody().input) as { content: unknown[] }[];
    expect(JSON.stringify(content[0]!.content)).toContain('data:image/png;base64,iVBORw0KGgo=');
  });
});

describe('per-model settings on the wire', () => {
  it('routing service: temperature, max_tokens and reasoning.effort where the model list says the model takes them', async () => {
    const router = serviceModule('router');
    const list = await router.modelOptions(
      await router.open({ baseUrl: sandbox.bed.emulator.routerBaseUrl, key: sandbox.keys.routerFunded, ...FAST }),
    );
    const claude = list.find((m) => m.id === 'anthropic/claude-sonnet-4.5')!;
    const mini = list.find((m) => m.id === 'openai/gpt-4o-mini')!;
    expect(claude.settings).toEqual({ temperature: true, maxOutputTokens: true, reasoningEffort: true });
    expect(mini.settings).toEqual({ temperature: true, maxOutputTokens: true, reasoningEffort: false });
    expect(mini.toolCalling).toBe(true);
    expect(list.find((m) => m.id === 'google/gemma-3-27b-it:free')!.toolCalling).toBe(false);
    expect(claude.imageInput).toBe(true);

    const chosen = { temperature: 0.3, maxOutputTokens: 40, reasoningEffort: 'high' as const };
    const c = cases[0]!;
    const ask = [{ role: 'user' as const, parts: [{ kind: 'text' as const, text: 'hello' }] }];
    await send({ ...c, model: mini.id }, { messages: ask, settings: applicableSettings(chosen, mini.settings) });
    expect(lastBody()).toMatchObject({ temperature: 0.3, max_tokens: 40 });
    expect(lastBody().reasoning).toBeUndefined();
    await send({ ...c, model: claude.id }, { messages: ask, settings: applicableSettings(chosen, claude.settings) });
    expect(lastBody()).toMatchObject({ temperature: 0.3, max_tokens: 40, reasoning: { effort: 'high' } });
  });

  it('direct service: a reasoning model gets reasoning.effort and no temperature, which it would refuse', async () => {
    const [o3] = directOptions(['o3']);
    const chosen = { temperature: 0.3, maxOutputTokens: 64, reasoningEffort: 'low' as const };
    const c = { ...cases[1]!, model: 'o3' };
    const ask = [{ role: 'user' as const, parts: [{ kind: 'text' as const, text: 'hello' }] }];
    const sent = await send(c, { messages: ask, settings: applicableSettings(chosen, o3!.settings) });
    expect(sent.error).toBeUndefined();
    expect(lastBody()).toMatchObject({ reasoning: { effort: 'low' }, max_output_tokens: 64 });
    expect(lastBody().temperature).toBeUndefined();
    // The emulator refuses what the real service refuses: the filter is what keeps the request working.
    const refused = await send(c, { messages: ask, settings: chosen });
    expect(refused.error?.kind).toBe('bad_request');
    expect(refused.error?.message).toContain("'temperature' is not supported");
  });
});

describe('the outgoing guard and the token estimate', () => {
  it('names the message and part of each key, a tool result and a tool call included', () => {
    const key = routerKey();
    const messages: LmMessage[] = [
      { role: 'user', parts: [{ kind: 'text', text: 'hello' }] },
      { role: 'assistant', parts: [{ kind: 'toolCall', callId: 'c1', name: 'read', input: { path: '.env' } }] },
      {
        role: 'user',
        parts: [
          { kind: 'text', text: 'see:' },
          { kind: 'toolResult', callId: 'c1', text: `KEY=${key}` },
        ],
      },
      { role: 'assistant', parts: [{ kind: 'toolCall', callId: 'c2', name: 'write', input: { text: key } }] },
    ];
    const found = keysInMessages(messages, {});
    expect(found.map((f) => [f.message, f.part, f.kind])).toEqual([
      [2, 1, 'toolResult'],
      [3, 0, 'toolCall'],
    ]);
    const words = describeLocations(found);
    expect(words).toContain('message 3, part 2 (tool result)');
    expect(words).not.toContain(key);
  });

  it('an allow comment in a message lets no key through, the stored key or another', () => {
    const key = routerKey();
    const messages: LmMessage[] = [{ role: 'user', parts: [{ kind: 'text', text: `k = "${key}" // keyward-ignore` }] }];
    expect(keysInMessages(messages, {}).map((f) => f.description)).toEqual(['routing service key']);
    const found = keysInMessages(messages, { known: [{ value: key, service: 'router' }] });
    expect(found.map((f) => [f.message, f.part, f.description])).toEqual([[0, 0, 'the key stored in Keyward']]);
  });

  it('counts a text by the model’s family, with a message overhead (tokenCount.test.ts measures the figures)', () => {
    expect(estimateTextTokens('', 'gpt-4o')).toBe(0);
    expect(estimateTextTokens('hello world', 'gpt-4o')).toBe(2);
    const text = 'one two three four five six seven eight nine ten';
    expect(estimateMessageTokens({ role: 'user', parts: [{ kind: 'text', text }] }, 'gpt-4o')).toBe(14);
  });
});
