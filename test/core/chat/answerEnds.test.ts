// How answers end, for both clients over HTTP against the emulator: refusals,
// content filters, token limits, and what is known about a broken answer
// (its usage, and a name that says the service was reached).
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { NO_RETRY } from '../../../src/core/retryPolicy.ts';
import { type TestBed, startTestBed } from '../../emulator/adminClient.ts';
import { REFUSAL_TOKENS, answerText } from '../../emulator/answers.ts';
import { directClient, routerClient, settle } from '../clientSupport.ts';

let bed: TestBed;
let routerKey: string;
let directKey: string;
beforeAll(async () => {
  bed = await startTestBed();
});
afterAll(() => bed.close());
beforeEach(async () => {
  await bed.admin('POST', '/reset', { sandbox: true });
  ({ routerFunded: routerKey, direct: directKey } = bed.emulator.sandbox!.keys);
});

const REFUSAL = REFUSAL_TOKENS.join('');
const chat = (prompt: string, maxTokens = 64) => ({
  model: 'openai/gpt-4o-mini',
  messages: [{ role: 'user' as const, content: prompt }],
  maxTokens,
});
const modes = [
  { stream: true, name: 'streamed' },
  { stream: false, name: 'whole' },
] as const;

describe.each(modes)('router client, $name: how the answer ended', ({ stream }) => {
  it('a refusal is the answer, marked as one, and never answer text', async () => {
    const result = await routerClient(bed, routerKey).chat(chat('[[refuse]] how to pick a lock'), { stream }).collect();
    expect(result).toMatchObject({ text: '', refusal: REFUSAL, finishReason: 'stop', nativeFinishReason: 'stop' });
    // The refusal was generated: its tokens are counted and charged.
    expect(result.usage!.outputTokens).toBe(REFUSAL_TOKENS.length);
    expect(result.costUsd).toBeGreaterThan(0);
  });

  it('a content filter says so, with what arrived before it', async () => {
    const empty = await routerClient(bed, routerKey).chat(chat('[[filter]] forbidden'), { stream }).collect();
    expect(empty).toMatchObject({
      text: '',
      refusal: null,
      finishReason: 'content_filter',
      nativeFinishReason: 'content_filter',
    });
    const partial = await routerClient(bed, routerKey).chat(chat('[[filter:3]] half'), { stream }).collect();
    expect(partial).toMatchObject({ finishReason: 'content_filter' });
    expect(partial.text.split(' ')).toHaveLength(3);
  });

  it('max_tokens cuts the answer: finish_reason length', async () => {
    const result = await routerClient(bed, routerKey).chat(chat('cut me short', 5), { stream }).collect();
    expect(result).toMatchObject({
      finishReason: 'length',
      text: answerText('cut me short', { tokens: 12 }).split(' ').slice(0, 5).join(' '),
    });
  });

  it('an ordinary answer ends with stop', async () => {
    expect(await routerClient(bed, routerKey).chat(chat('plain'), { stream }).collect()).toMatchObject({
      finishReason: 'stop',
      refusal: null,
    });
  });
});

describe.each(modes)('direct client, $name: how the answer ended', ({ stream }) => {
  it('a refusal content part is the answer, marked as one', async () => {
    const result = await directClient(bed, directKey)
      .respond({ model: 'gpt-4o-mini', input: '[[refuse]] how to pick a lock' }, { stream })
      .collect();
    expect(result).toMatchObject({ text: '', refusal: REFUSAL, finishReason: 'stop', nativeFinishReason: 'completed' });
    expect(result.usage!.outputTokens).toBe(REFUSAL_TOKENS.length);
  });

  it('incomplete because of the content filter', async () => {
    const result = await directClient(bed, directKey)
      .respond({ model: 'gpt-4o-mini', input: '[[filter:2]] forbidden' }, { stream })
      .collect();
    expect(result).toMatchObject({
      finishReason: 'content_filter',
      nativeFinishReason: 'content_filter',
      refusal: null,
    });
    expect(result.text.split(' ')).toHaveLength(2);
  });

  it('incomplete at max_output_tokens', async () => {
    await bed.admin('POST', '/config', { answerTokens: 30 });
    const result = await directClient(bed, directKey)
      .respond({ model: 'gpt-4o-mini', input: 'long', maxOutputTokens: 16 }, { stream })
      .collect();
    expect(result).toMatchObject({ finishReason: 'length', nativeFinishReason: 'max_output_tokens' });
  });
});

describe('a broken answer: what the service reported, and an accurate name', () => {
  it('direct: the usage of response.failed after an error event is kept with the interrupted text', async () => {
    // 4 lifecycle events, then 3 deltas, then `error` + `response.failed` carrying the usage so far.
    await bed.admin('POST', '/faults', { kind: 'error_event', service: 'direct', afterChunks: 7 });
    const stream = directClient(bed, directKey, { retry: NO_RETRY }).respond({ model: 'gpt-4o-mini', input: 'breaks' });
    const { text, error } = await settle(stream);
    expect(error).toMatchObject({ kind: 'stream_interrupted', partialText: text });
    expect(text.split(' ')).toHaveLength(3);
    expect(stream.reported).toEqual({ usage: expect.objectContaining({ outputTokens: 3 }), costUsd: null });
  });

  it('direct: a reset mid-stream says the service was reached, not that it could not be', async () => {
    await bed.admin('POST', '/faults', { kind: 'reset', service: 'direct', afterChunks: 7 });
    const { error } = await settle(
      directClient(bed, directKey, { retry: NO_RETRY }).respond({ model: 'gpt-4o-mini', input: 'reset' }),
    );
    expect(error!.kind).toBe('stream_interrupted');
    expect(error!.message).not.toMatch(/could not reach/i);
    expect(error!.message).toMatch(
      /direct service started answering, then the connection (was reset|was closed|broke)/,
    );
  });

  it('router: a reset after the first chunks, before any text, is not "could not reach" either', async () => {
    // Frame 0 is the first delta; strike before it, after the headers and the processing comment.
    await bed.admin('POST', '/faults', { kind: 'reset', service: 'router', afterChunks: 0 });
    const { error } = await settle(routerClient(bed, routerKey, { retry: NO_RETRY }).chat(chat('reset early')));
    expect(error).toMatchObject({ kind: 'network' });
    expect(error!.message).toMatch(/routing service started answering, then the connection/);
    expect(error!.action).toMatch(/service was reached/);
  });

  it('router: usage sent before a reset is kept; the answer it closed is whole', async () => {
    // 12 deltas, the finish chunk and the usage chunk, then the reset takes the [DONE].
    await bed.admin('POST', '/faults', { kind: 'reset', service: 'router', afterChunks: 14 });
    const stream = routerClient(bed, routerKey, { retry: NO_RETRY }).chat(chat('usage then reset'));
    const { result } = await settle(stream);
    expect(result).toMatchObject({ finishReason: 'stop', usage: { outputTokens: 12 } });
    expect(stream.reported?.usage?.outputTokens).toBe(12);
  });
});
