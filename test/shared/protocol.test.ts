import { describe, expect, it } from 'vitest';
import { isWebviewMessage, paidTwin } from '../../src/shared/protocol.ts';

const attachment = { id: 'a1', fileName: 'src/x.ts', languageId: 'typescript', startLine: 1, endLine: 3, text: 'code' };

describe('webview message guard', () => {
  it.each([
    { type: 'webview/ready' },
    {
      type: 'chat/send',
      requestId: 'r1',
      service: 'router',
      model: 'openrouter/free',
      prompt: 'hi',
      attachments: [attachment],
    },
    { type: 'chat/send', requestId: 'r1', service: 'direct', model: 'gpt-5.4-mini', prompt: 'hi', attachments: [] },
    { type: 'chat/stop', requestId: 'abc123' },
    { type: 'model/select', service: 'router', model: 'meta-llama/llama-3.3-70b-instruct:free' },
    { type: 'code/insert', code: 'x', mode: 'below' },
    { type: 'link/open', url: 'https://example.test' },
    { type: 'action/run', action: 'openCredits', service: 'router' },
    { type: 'action/run', action: 'signIn', service: 'router' },
    { type: 'history/export' },
    { type: 'chat/regenerate', requestId: 'r2', turnId: 'a1', service: 'router', model: 'openrouter/free' },
    { type: 'chat/regenerate', requestId: 'r2', turnId: 'a1', service: 'router', model: 'm', overCap: true },
    { type: 'chat/showVersion', turnId: 'a1', index: 0 },
    { type: 'focus/changed', focused: false },
    { type: 'answer/showLast' },
  ])('accepts %j', (message) => {
    expect(isWebviewMessage(message)).toBe(true);
  });

  it.each([
    null,
    'chat/send',
    [],
    {},
    { type: 'chat/regenerate', requestId: 'r2', turnId: '../a1', service: 'router', model: 'm' },
    { type: 'chat/regenerate', requestId: 'r2', turnId: 'a1', service: 'router', model: 'm', overCap: 'yes' },
    { type: 'chat/showVersion', turnId: 'a1', index: -1 },
    { type: 'chat/showVersion', turnId: 'a1', index: 1.5 },
    { type: 'focus/changed', focused: 'true' },
    { type: 'chat/send', requestId: 'r1', service: 'evil', model: 'm', prompt: 'x', attachments: [] },
    { type: 'chat/send', requestId: 'r1', service: 'router', model: 'm', prompt: '   ', attachments: [] },
    { type: 'chat/send', requestId: '../../etc', service: 'router', model: 'm', prompt: 'x', attachments: [] },
    { type: 'chat/send', requestId: 'r1', service: 'router', model: 'm<script>', prompt: 'x', attachments: [] },
    {
      type: 'chat/send',
      requestId: 'r1',
      service: 'router',
      model: 'm',
      prompt: 'x',
      attachments: [{ ...attachment, startLine: 'one' }],
    },
    {
      type: 'chat/send',
      requestId: 'r1',
      service: 'router',
      model: 'm',
      prompt: 'x'.repeat(1_000_001),
      attachments: [],
    },
    { type: 'code/insert', code: 'x', mode: 'overwrite-everything' },
    { type: 'action/run', action: 'deleteKey', service: 'router' },
    { type: 'key/read', service: 'router' },
  ])('refuses %#', (message) => {
    expect(isWebviewMessage(message)).toBe(false);
  });

  it('names the paid twin of a free model', () => {
    expect(paidTwin('meta-llama/llama-3.3-70b-instruct:free')).toBe('meta-llama/llama-3.3-70b-instruct');
    expect(paidTwin('openai/gpt-4o')).toBeUndefined();
  });
});
