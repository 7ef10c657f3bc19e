// Edit with Keyward… over the fake vscode, with real HTTP to the emulator (its `[[rewrite]]` answer rewrites the
// code it is sent, one line a delta): the answer streams into the document as a diff in place, Keep and Undo work
// per hunk and for everything, one Ctrl+Z after Keep puts the whole edit back, Stop offers what arrived or the old
// text, a follow-up on a waiting edit carries the earlier round and replaces the same lines, errors say the chat's
// advice with Retry, and the secret guard and the daily cap stand in front of every service, the compatible one too.
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { type TestBed, startTestBed } from '../../emulator/adminClient.ts';
import { routerKey } from '../../emulator/keyFactory.ts';
import { Position, Range, Selection } from '../fakeVscode.ts';
import { fake } from '../vscodeShim.ts';
import { CODE, EDITED, PAID, type Setup, setup } from './inlineEditSetup.ts';

let bed: TestBed;
beforeAll(async () => {
  bed = await startTestBed();
});
afterAll(() => bed.close());

let s: Setup;
beforeEach(async () => {
  await bed.admin('POST', '/reset', { sandbox: true });
  s?.dispose();
  s = setup(bed);
  await s.keys.setKey('router', bed.emulator.sandbox!.keys.routerFunded);
});

const text = () => s.editor.document.text;
const uri = () => s.editor.document.uri.toString();
const lenses = () =>
  s.edits
    .provideCodeLenses(s.editor.document as never)
    .map((l) => ({ line: l.range.start.line, title: l.command?.title ?? '' }));

async function edit(prompt: string): Promise<void> {
  s.prompts.push(prompt);
  await s.edits.run();
}

describe('Edit with Keyward…', () => {
  it('streams the answer in place as a diff: dropped lines marked, new ones inserted, the rest untouched', async () => {
    await edit('tidy [[rewrite]]');
    expect(s.edits.state(uri())).toBe('review');
    expect(s.shapes[0]!.title).toBe(`Edit with Keyward: ${PAID} on Routing service`);
    expect(s.shapes[0]!.prompt).toBe('lines 3–6 of /w/demo.js');
    // Old lines first in each hunk, then the new ones; the lines outside the function as they were.
    expect(text()).toBe(
      'const a = 0;\n\nfunction old() {\n  // drop me\nfunction new() {\n  return 1; // add below\n  // added by keyward\n}\n\nconst z = 9;',
    );
    const shownLines = s.editor.decorated();
    expect([shownLines.removed.sort(), shownLines.added.sort()]).toEqual([
      [2, 3],
      [4, 6],
    ]);
    const shown = lenses();
    expect(shown.filter((l) => l.title.includes('Keep')).map((l) => [l.line, l.title])).toEqual([
      [2, '$(check-all) Keep All'],
      [2, '$(check) Keep'],
      [6, '$(check) Keep'],
    ]);
    expect(shown.map((l) => l.title)).toContain('−2 +1');
  });

  it('Keep All leaves the answer, unsaved, and one Ctrl+Z puts the whole edit back', async () => {
    await edit('tidy [[rewrite]]');
    await s.edits.resolveAll(true);
    expect(text()).toBe(EDITED);
    expect(s.edits.state(uri())).toBeUndefined();
    expect(s.editor.decorated()).toEqual({ removed: [], added: [] });
    s.editor.undo();
    expect(text()).toBe(CODE);
  });

  it('Undo All puts back exactly the old text', async () => {
    await edit('tidy [[rewrite]]');
    await s.edits.resolveAll(false);
    expect(text()).toBe(CODE);
  });

  it('keeps one hunk and undoes another, from their lenses', async () => {
    await edit('tidy [[rewrite]]');
    // The second hunk (the added comment), by its lens's arguments, then the first by the cursor.
    const undoSecond = s.edits
      .provideCodeLenses(s.editor.document as never)
      .filter((l) => l.command?.title === '$(discard) Undo')[1]!;
    await s.edits.resolveHunk(false, ...(undoSecond.command!.arguments as [string, number]));
    expect(s.edits.state(uri())).toBe('review');
    s.editor.selection = new Selection(new Position(2, 0), new Position(2, 0));
    await s.edits.resolveHunk(true);
    expect(text()).toBe('const a = 0;\n\nfunction new() {\n  return 1; // add below\n}\n\nconst z = 9;');
    expect(s.edits.state(uri())).toBeUndefined();
    s.editor.undo();
    expect(text()).toBe(CODE);
  });

  it('Stop: what arrived can be kept (the lines not reached stay), or everything put back', async () => {
    for (const choice of ['undo', 'keep'] as const) {
      s.editor.document.text = CODE;
      await bed.admin('POST', '/faults', { kind: 'stall', service: 'router', afterChunks: 2 });
      s.afterStop.push(choice);
      s.prompts.push('tidy [[rewrite]]');
      const running = s.edits.run();
      await vi.waitFor(() => expect(text()).toContain('function new() {'), { timeout: 5000 });
      expect(s.edits.state(uri())).toBe('streaming');
      s.edits.stop();
      await running;
      await vi.waitFor(() => expect(s.edits.state(uri())).toBeUndefined());
      if (choice === 'undo') expect(text()).toBe(CODE);
      else {
        // What arrived is kept; the lines the answer never reached stay as they were (none dropped, none added).
        expect(text()).toMatch(/^const a = 0;\n\nfunction new\(\) \{\n/);
        expect(text()).not.toContain('function old');
        expect(text()).not.toContain('added by keyward');
        expect(text().endsWith('  return 1; // add below\n}\n\nconst z = 9;')).toBe(true);
      }
    }
  });

  it('a follow-up on a waiting edit refines it: the earlier instruction and answer go along, the same lines are replaced', async () => {
    await edit('tidy [[rewrite]]');
    s.editor.selection = new Selection(new Position(4, 0), new Position(4, 0));
    await edit('make it shorter [[rewrite]]');
    expect(s.shapes[1]!.prompt).toBe('Follow-up on “tidy [[rewrite]]” (lines 3–6 of /w/demo.js)');
    const body = bed.emulator.requests.filter((r) => r.path === '/chat/completions').at(-1)!.body!;
    const messages = body.messages as { role: string; content: string }[];
    expect(messages.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'user']);
    expect(messages[1]!.content).toContain('Instruction: tidy [[rewrite]]');
    expect(messages[2]!.content).toBe('function new() {\n  return 1; // add below\n  // added by keyward\n}');
    expect(messages[3]!.content).toMatch(/^Follow-up on your last edit: make it shorter/);
    // Not stacked on the first: the old lines once, the new answer once.
    await s.edits.resolveAll(true);
    expect(text()).toBe(EDITED);
  });

  it('a follow-up right after Keep refines the kept lines', async () => {
    await edit('tidy [[rewrite]]');
    await s.edits.resolveAll(true);
    s.editor.selection = new Selection(new Position(3, 0), new Position(3, 0));
    await edit('again [[rewrite]]');
    expect(s.shapes[1]!.prompt).toMatch(/^Follow-up on “tidy \[\[rewrite\]\]”/);
    await s.edits.resolveAll(true);
    // The kept answer rewritten once more: its "add below" line gets a second comment.
    expect(text()).toBe(EDITED.replace('  // added by keyward', '  // added by keyward\n  // added by keyward'));
  });

  it('an answer broken off keeps what arrived for Keep or Undo, and says so with the chat’s words', async () => {
    await bed.admin('POST', '/faults', { kind: 'reset', service: 'router', afterChunks: 2, count: 1 });
    await edit('tidy [[rewrite]]');
    await vi.waitFor(() => expect(fake.state.messages.some((m) => m.level === 'error')).toBe(true));
    expect(fake.state.messages.find((m) => m.level === 'error')!.text).toMatch(
      /^Edit with Keyward \(Routing service\): Answer broke off\./,
    );
    expect(s.edits.state(uri())).toBe('stopped');
    expect(lenses().some((l) => /^\$\(info\) Stopped after \d+ lines$/.test(l.title))).toBe(true);
    await s.edits.resolveAll(false);
    expect(text()).toBe(CODE);
  });

  it('a failure says the chat’s title and advice where the edit was asked, and Retry sends it again', async () => {
    await bed.admin('POST', '/faults', { kind: 'http500', service: 'router', shouldRetry: false, count: 1 });
    fake.state.answers.push('Retry');
    await edit('tidy [[rewrite]]');
    await vi.waitFor(() => expect(fake.state.messages.length).toBeGreaterThan(0));
    await vi.waitFor(() => expect(s.edits.state(uri())).toBe('review'));
    const error = fake.state.messages.find((m) => m.level === 'error')!;
    expect(error.text).toMatch(/^Edit with Keyward \(Routing service\): /);
    expect(error.items).toContain('Retry');
    await s.edits.resolveAll(true);
    expect(text()).toBe(EDITED);
  });

  it('a refused key names it with the chat’s buttons, and nothing is left in the file', async () => {
    await s.keys.setKey('router', routerKey());
    await edit('tidy [[rewrite]]');
    await vi.waitFor(() => expect(fake.state.messages.some((m) => m.level === 'error')).toBe(true));
    const error = fake.state.messages.find((m) => m.level === 'error')!;
    expect(error.text).toContain('Key not accepted');
    expect(error.items).toEqual(['Set key', 'Verify key']);
    expect(text()).toBe(CODE);
    expect(s.edits.state(uri())).toBeUndefined();
  });

  it('the secret guard reads the instruction and the code: a key in them is asked about, and cancel sends nothing', async () => {
    const key = routerKey();
    s.editor.document.text = CODE.replace('return 1;', `return "${key}";`);
    const sent = bed.emulator.requests.length;
    await edit('tidy [[rewrite]]');
    expect(s.asked).toHaveLength(1);
    expect(s.asked[0]).toMatch(/sk-or-v1-/);
    expect(s.asked[0]).not.toContain(key);
    expect(bed.emulator.requests.length).toBe(sent);
    expect(s.edits.state(uri())).toBeUndefined();
    expect(text()).toContain(key);
  });

  it('a key sent redacted comes back as the key where the answer returns its placeholder: Keep keeps the key', async () => {
    s.dispose();
    s = setup(bed, { ask: async () => 'redact' });
    await s.keys.setKey('router', bed.emulator.sandbox!.keys.routerFunded);
    const key = routerKey();
    s.editor.document.text = CODE.replace('return 1;', `return "${key}";`);
    await edit('tidy [[rewrite]]');
    const body = JSON.stringify(bed.emulator.requests.at(-1)?.body ?? {});
    expect(body).toContain('[redacted key sk-or-v1-');
    expect(body).not.toContain(key);
    await s.edits.resolveAll(true);
    expect(text()).toBe(EDITED.replace('return 1;', `return "${key}";`));
    expect(fake.state.messages.filter((m) => /placeholder/.test(m.text))).toEqual([]);
  });

  it('past the daily cap it asks first, as the chat does; Send Anyway sends', async () => {
    s.dispose();
    s = setup(bed, {}, { 'keyward.spend.dailyCapUsd': 0 });
    await s.keys.setKey('router', bed.emulator.sandbox!.keys.routerFunded);
    fake.state.answers.push(undefined);
    await edit('tidy [[rewrite]]');
    expect(fake.state.messages[0]!.text).toMatch(/has reached the daily cap/);
    expect(text()).toBe(CODE);
    fake.state.answers.push('Send Anyway');
    await edit('tidy [[rewrite]]');
    expect(s.edits.state(uri())).toBe('review');
  });

  it('works on the compatible service too', async () => {
    s.dispose();
    s = setup(bed, { chatChoice: () => ({ service: 'compatible', model: 'qwen2.5-coder:7b' }) });
    await edit('tidy [[rewrite]]');
    await s.edits.resolveAll(true);
    expect(text()).toBe(EDITED);
  });

  it('lets go of an edit whose lines are changed by hand, and follows edits above it', async () => {
    await edit('tidy [[rewrite]]');
    s.editor.type(new Range(0, 0, 0, 0), '// top\n');
    expect(lenses()[0]!.line).toBe(3);
    await s.edits.resolveAll(false);
    expect(text()).toBe(`// top\n${CODE}`);
    await edit('tidy [[rewrite]]');
    s.editor.type(new Range(4, 0, 4, 0), 'x');
    expect(s.edits.state(uri())).toBeUndefined();
    expect(fake.state.messages.at(-1)!.text).toMatch(/changed by hand/);
  });

  // VS Code refuses an edit built on a version the document has left; typing that lands while a write is on its way
  // is the person's, not the edit's (a real-host run once took Insert Line Above there for the edit's own change,
  // and Keep All then dropped the wrong lines).
  it('typing above the lines while a write is on its way moves the edit, and the write lands below it', async () => {
    s.editor.inFlight = () => {
      s.editor.inFlight = undefined;
      s.editor.type(new Range(0, 0, 0, 0), '// top\n');
    };
    await edit('tidy [[rewrite]]');
    expect(s.edits.state(uri())).toBe('review');
    expect(lenses()[0]!.line).toBe(3);
    await s.edits.resolveAll(true);
    expect(text()).toBe(`// top\n${EDITED}`);
    expect(fake.state.messages).toEqual([]);
  });

  it('typing above the lines after a write landed, before VS Code answered it, moves the edit too', async () => {
    s.editor.landed = () => {
      s.editor.landed = undefined;
      s.editor.type(new Range(0, 0, 0, 0), '// top\n');
    };
    await edit('tidy [[rewrite]]');
    expect(lenses()[0]!.line).toBe(3);
    await s.edits.resolveAll(true);
    expect(text()).toBe(`// top\n${EDITED}`);
  });

  it('typing in the lines while a write is on its way lets go of the edit, and says it once', async () => {
    s.editor.inFlight = () => {
      s.editor.inFlight = undefined;
      s.editor.type(new Range(4, 0, 4, 0), 'x');
    };
    await edit('tidy [[rewrite]]');
    expect(s.edits.state(uri())).toBeUndefined();
    // Nothing of the answer was written: the write in flight was refused, and none came after it.
    expect(text()).toBe(CODE.replace('  return 1;', 'x  return 1;'));
    expect(fake.state.messages.map((m) => m.text)).toEqual([expect.stringMatching(/changed by hand/)]);
  });

  it('let go after some of the answer was written, the edit neither writes nor marks anything more', async () => {
    let after = -1;
    // Typed while a later write (a batch, or the review order) is on its way: the answer's first line is in.
    s.editor.inFlight = () => {
      if (!text().includes('function new() {')) return;
      s.editor.inFlight = undefined;
      s.editor.type(new Range(3, 0, 3, 0), 'x');
      after = s.editor.edits;
    };
    await edit('tidy [[rewrite]]');
    expect(after).toBeGreaterThan(0);
    expect(s.edits.state(uri())).toBeUndefined();
    expect(s.editor.edits).toBe(after);
    expect(s.editor.decorated()).toEqual({ removed: [], added: [] });
    expect(fake.state.messages.map((m) => m.text)).toEqual([expect.stringMatching(/changed by hand/)]);
  });

  it('Keep All refused (the person typed above while it was on its way) is made again below the typing', async () => {
    await edit('tidy [[rewrite]]');
    s.editor.inFlight = () => {
      s.editor.inFlight = undefined;
      s.editor.type(new Range(0, 0, 0, 0), '// top\n');
    };
    await s.edits.resolveAll(true);
    expect(text()).toBe(`// top\n${EDITED}`);
    expect(s.edits.state(uri())).toBeUndefined();
  });

  it('Undo All while the answer streams puts the old text back and asks nothing more', async () => {
    await bed.admin('POST', '/faults', { kind: 'stall', service: 'router', path: '/chat/completions', afterChunks: 2 });
    // Were "keep what arrived or put everything back?" asked, it would take this answer.
    s.afterStop.push('keep');
    s.prompts.push('tidy [[rewrite]]');
    const running = s.edits.run();
    await vi.waitFor(() => expect(text()).toContain('function new() {'), { timeout: 5000 });
    await s.edits.resolveAll(false);
    await running;
    expect(text()).toBe(CODE);
    expect(s.edits.state(uri())).toBeUndefined();
    expect(s.afterStop).toEqual(['keep']);
    expect(fake.state.messages).toEqual([]);
  });

  it('Keep pressed while the answer streams does nothing to the file and says why in the status bar', async () => {
    const contexts: [string, unknown][] = [];
    fake.state.commands.set('setContext', (key: unknown, value: unknown) => void contexts.push([String(key), value]));
    // The answer's request only: the model list asked in the background must not take the fault.
    await bed.admin('POST', '/faults', { kind: 'stall', service: 'router', path: '/chat/completions', afterChunks: 2 });
    s.afterStop.push('undo');
    s.prompts.push('tidy [[rewrite]]');
    const running = s.edits.run();
    await vi.waitFor(() => expect(text()).toContain('function new() {'), { timeout: 5000 });
    // The keys stay bound while it streams (else Ctrl+Shift+Enter is VS Code's Insert Line Above in the edit's lines).
    expect(contexts).toContainEqual(['keyward.inlineEditPending', true]);
    expect(contexts).toContainEqual(['keyward.inlineEditStreaming', true]);
    // Bound in this file only, by its path as VS Code's `resourcePath` gives it.
    expect(contexts).toContainEqual(['keyward.inlineEditFiles', ['/w/demo.js']]);
    await s.edits.resolveAll(true);
    await s.edits.resolveHunk(true);
    // Nothing kept: the old lines are all still there (the stream may have written more meanwhile).
    expect(text()).toContain('function old() {');
    expect(text()).toContain('  // drop me');
    expect(s.edits.state(uri())).toBe('streaming');
    expect(fake.state.statusMessages.at(-1)).toMatch(/still streaming/);
    s.edits.stop();
    await running;
    await vi.waitFor(() => expect(text()).toBe(CODE));
    fake.state.commands.delete('setContext');
  });
});
