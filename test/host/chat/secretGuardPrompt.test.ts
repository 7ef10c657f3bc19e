// The secret guard's question as the person reads it, over the fake vscode: it names each key masked and where it
// is (the prompt and its line, or the attached file and its line in that file), and only "send redacted" goes on.
import { beforeEach, describe, expect, it } from 'vitest';
import type { GuardHit } from '../../../src/core/guards/secretGuard.ts';
import { askToRedact } from '../../../src/host/chat/secretGuardPrompt.ts';
import { fake } from '../vscodeShim.ts';

const hit = (over: Partial<GuardHit>): GuardHit => ({
  piece: 0,
  line: 0,
  column: 4,
  masked: 'sk-or-v1-…ab12',
  description: 'a routing service key',
  ...over,
});

beforeEach(() => {
  fake.state.messages.length = 0;
  fake.state.answers.length = 0;
});

describe("the secret guard's question", () => {
  it('names where each key is: the prompt and its line, an attached file and its line there', async () => {
    fake.state.answers.push('Send with the Key Redacted');
    const answer = await askToRedact('sk-or-v1-…ab12 (a routing service key), sk-…cd34 (a direct service key)', [
      hit({ line: 2 }),
      hit({ piece: 1, line: 3, masked: 'sk-…cd34', file: 'src/config.ts', fileLine: 42 }),
    ]);
    expect(answer).toBe('redact');
    const [asked] = fake.state.messages;
    expect(asked!.text).toMatch(/^The prompt contains a key: .*\. Keyward will not send it\./);
    expect(asked!.text).toContain('sk-or-v1-…ab12 in the prompt, line 3');
    expect(asked!.text).toContain('sk-…cd34 in src/config.ts, line 42');
    expect(asked!.items).toEqual(['Send with the Key Redacted']);
  });

  it('lists the first places and counts the rest', async () => {
    const hits = Array.from({ length: 8 }, (_, i) => hit({ piece: 1, line: i, file: 'a.env', fileLine: i + 1 }));
    await askToRedact('sk-or-v1-…ab12 (a routing service key)', hits);
    const text = fake.state.messages[0]!.text;
    // One key: named once, then only its places.
    expect(text).toContain('Where: a.env, line 1; a.env, line 2;');
    expect(text).toContain('a.env, line 5; and 3 more.');
    expect(text).not.toContain('a.env, line 6');
    expect(text).toMatch(/and 3 more/);
  });

  it('one key in the prompt: its place only, the key already named', async () => {
    await askToRedact('sk-or-v1-…ab12 (a routing service key)', [hit({ line: 0 })]);
    expect(fake.state.messages[0]!.text).toBe(
      'The prompt contains a key: sk-or-v1-…ab12 (a routing service key). Keyward will not send it. Where: the prompt, line 1.',
    );
  });

  it('closing the dialog cancels', async () => {
    expect(await askToRedact('sk-or-v1-…ab12 (a routing service key)', [hit({})])).toBe('cancel');
  });
});
