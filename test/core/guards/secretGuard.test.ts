import { describe, expect, it } from 'vitest';
import type { Attachment } from '../../../src/shared/protocol.ts';
import {
  type GuardAnswer,
  type GuardHit,
  type GuardQuestion,
  guardPrompt,
} from '../../../src/core/guards/secretGuard.ts';
import { directKey, routerKey } from '../../emulator/keyFactory.ts';

const attach = (text: string): Attachment => ({
  id: 'a1',
  fileName: '.env',
  languageId: 'dotenv',
  startLine: 1,
  endLine: 2,
  text,
});

describe('secret guard', () => {
  it('sends a prompt without keys as it is, without asking', async () => {
    const asked: string[] = [];
    const result = await guardPrompt('hello', [attach('A=1')], {}, async (names) => {
      asked.push(names);
      return 'cancel';
    });
    expect(result).toEqual({ prompt: 'hello', attachments: [attach('A=1')] });
    expect(asked).toEqual([]);
  });

  it('fails closed when the stored keys could not be read: it asks even when it finds nothing', async () => {
    const asked: (string | undefined)[] = [];
    const ask = async (_names: string, _hits: unknown, unread?: string): Promise<GuardAnswer> => {
      asked.push(unread);
      return 'cancel';
    };
    expect(await guardPrompt('hello', [], {}, ask, 'no keyring')).toBeUndefined();
    expect(asked).toEqual(['no keyring']);
  });

  it('names an admin key as what it is, so the question says an organization key was about to leave', async () => {
    const admin = directKey('admin');
    let named = '';
    const result = await guardPrompt(`why does ${admin} fail?`, [], {}, async (names) => {
      named = names;
      return 'cancel';
    });
    expect(result).toBeUndefined();
    expect(named).toMatch(/^sk-admin-…[\w-]{4} \(direct service admin key\)$/);
    expect(named).not.toContain(admin);
  });

  it('cancels unless the person chooses to redact', async () => {
    const key = routerKey();
    expect(await guardPrompt(`use ${key}`, [], {}, async () => 'cancel')).toBeUndefined();
  });

  it('redacts every key in the prompt and the attachments, and names them masked', async () => {
    const [a, b] = [routerKey(), routerKey()];
    let named = '';
    const answer = async (names: string): Promise<GuardAnswer> => {
      named = names;
      return 'redact';
    };
    const result = await guardPrompt(`first ${a} then ${a}`, [attach(`X=1\nKEY=${b}\n`)], {}, answer);
    expect(result).toBeDefined();
    const sent = JSON.stringify(result);
    expect(sent).not.toContain(a.slice(12));
    expect(sent).not.toContain(b.slice(12));
    expect(result!.prompt).toMatch(/^first \[redacted key [^\]]+\] then \[redacted key [^\]]+\]$/);
    expect(result!.attachments[0]!.text).toMatch(/^X=1\nKEY=\[redacted key [^\]]+\]\n$/);
    expect(named).not.toContain(a.slice(12));
    expect(named.split(', ')).toHaveLength(2);
  });
});

describe('secret guard and allow comments', () => {
  it('an allow comment in the prompt or an attachment lets no key through, the stored key or another', async () => {
    const [mine, other] = [routerKey(), routerKey()];
    const asked: string[] = [];
    const ask = async (names: string): Promise<GuardAnswer> => {
      asked.push(names);
      return 'redact';
    };
    const options = { known: [{ value: mine, service: 'router' as const }] };
    const result = await guardPrompt(
      `x = "${mine}" // keyward-ignore`,
      [attach(`# keyward-ignore-next-line\nKEY=${mine}\nOTHER=${other} # gitleaks:allow\n`)],
      options,
      ask,
    );
    expect(asked).toEqual([expect.stringContaining('the key stored in Keyward')]);
    expect(JSON.stringify(result)).not.toContain(mine);
    // An allow comment lets a key stay in a file; it is no decision to send the key to a model service.
    expect(JSON.stringify(result)).not.toContain(other);
  });
});

describe('secret guard: where each key is', () => {
  it('says for each hit whether it is in the prompt, or in which attached file and at which line of that file', async () => {
    const [a, b] = [routerKey(), routerKey()];
    let where: readonly GuardHit[] = [];
    const ask: GuardQuestion = async (_names, hits) => {
      where = hits;
      return 'cancel';
    };
    const selection: Attachment = { ...attach(`\n\nconst k = "${b}";\n`), fileName: 'src/config.ts', startLine: 40 };
    await guardPrompt(`line one\nuse ${a}`, [attach('A=1'), selection], {}, ask);
    expect(where.map(({ piece, line, file, fileLine }) => ({ piece, line, file, fileLine }))).toEqual([
      { piece: 0, line: 1, file: undefined, fileLine: undefined },
      { piece: 2, line: 2, file: 'src/config.ts', fileLine: 42 },
    ]);
  });

  it('masks a key in an attached file name', async () => {
    const [a, named] = [routerKey(), routerKey()];
    let where: readonly GuardHit[] = [];
    await guardPrompt('', [{ ...attach(`k=${a}`), fileName: `notes-${named}.txt` }], {}, async (_n, hits) => {
      where = hits;
      return 'cancel';
    });
    expect(where[0]!.file).toMatch(/^notes-sk-or-v1-…\w{4}\.txt$/);
  });
});
