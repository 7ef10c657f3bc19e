// The `#` references of Edit with Keyward… (issue 34 §2), through the person's path over the fake vscode and real
// HTTP to the emulator: #file, #selection and #problems reach the request body, read from the editor the edit was
// asked in; a reference that cannot be read is told with the chat's reason and nothing goes without the person's
// word, nor is the prompt lost; the box (the real Quick Pick) completes `#` words, shows what the references add and
// opens the exact text sent.
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { HISTORY_KEY } from '../../../src/host/inlineEdit/inlineEditInput.ts';
import { type TestBed, startTestBed } from '../../emulator/adminClient.ts';
import { routerKey } from '../../emulator/keyFactory.ts';
import { Diagnostic, DiagnosticSeverity, Position, Range, Selection } from '../fakeVscode.ts';
import type { FakeQuickPick } from '../fakeQuickPick.ts';
import { FakeTextDocument, FakeTextEditor } from '../fakeTextEditor.ts';
import { fake } from '../vscodeShim.ts';
import { CODE, EDITED, type Setup, setup } from './inlineEditSetup.ts';

let bed: TestBed;
beforeAll(async () => {
  bed = await startTestBed();
});
afterAll(() => bed.close());

type Api = Record<string, Record<string, unknown>>;
const api = fake.api as unknown as Api;
const diagnostics = new Map<string, Diagnostic[]>();
/** The read-only documents opened ("Show what is sent"): their text, read from the content provider. */
const opened: string[] = [];
const contexts: [string, unknown][] = [];
let provider: { provideTextDocumentContent(uri: unknown): string } | undefined;

api.languages!.getDiagnostics = (uri: { toString(): string }) => diagnostics.get(uri.toString()) ?? [];
api.workspace!.registerTextDocumentContentProvider = (_scheme: string, p: typeof provider) => {
  provider = p;
  return { dispose: () => undefined };
};
api.workspace!.openTextDocument = async (uri: unknown) => ({ uri, text: provider!.provideTextDocumentContent(uri) });
api.window!.showTextDocument = async (document: { text: string }) => {
  opened.push(document.text);
};

let s: Setup;
beforeEach(async () => {
  await bed.admin('POST', '/reset', { sandbox: true });
  s?.dispose();
  diagnostics.clear();
  opened.length = 0;
  contexts.length = 0;
  fake.state.commands.set('setContext', (key: unknown, value: unknown) => void contexts.push([String(key), value]));
  s = setup(bed);
  await s.keys.setKey('router', bed.emulator.sandbox!.keys.routerFunded);
});

const text = () => s.editor.document.text;
const completions = () => bed.emulator.requests.filter((r) => r.path === '/chat/completions');
/** The last request's last user message: what the references added, the lines and the instruction. */
const lastAsk = () => {
  const messages = completions().at(-1)!.body!.messages as { role: string; content: string }[];
  return messages.at(-1)!.content;
};

async function edit(prompt: string): Promise<void> {
  s.prompts.push(prompt);
  await s.edits.run();
}

describe('# references in the inline edit', () => {
  it('#file sends the whole file, before the lines to change; the instruction goes without the #word', async () => {
    await edit('tidy #file [[rewrite]]');
    const ask = lastAsk();
    expect(ask).toContain(`File /w/demo.js (javascript), lines 1-8:\n\`\`\`javascript\n${CODE}\n\`\`\``);
    expect(ask).toMatch(/Instruction: tidy \[\[rewrite\]\]$/);
    expect(ask.indexOf('File /w/demo.js')).toBeLessThan(ask.indexOf('/w/demo.js, from line 3:'));
    // The answer still rewrites the function only.
    await s.edits.resolveAll(true);
    expect(text()).toBe(EDITED);
  });

  it('#selection and #problems are read from the editor the edit was asked in, not the one active at Enter', async () => {
    const uri = s.editor.document.uri.toString();
    const problem = new Diagnostic(new Range(3, 2, 3, 12), "'drop me' is\nunused", DiagnosticSeverity.Warning);
    problem.source = 'eslint';
    problem.code = 'no-unused';
    diagnostics.set(uri, [problem, new Diagnostic(new Range(7, 0, 7, 5), 'far away')]);
    s.editor.selection = new Selection(new Position(2, 0), new Position(5, 1));
    const other = new FakeTextEditor(new FakeTextDocument('/w/other.js', 'const other = 1;'));
    other.selection = new Selection(new Position(0, 0), new Position(0, 5));
    s.prompts.push('fix #problems in #selection [[rewrite]]');
    const running = s.edits.run();
    // The box is answered once another editor has come to the front.
    await vi.waitFor(() => expect(s.shapes).toHaveLength(1));
    fake.state.editors.push(other);
    Object.assign(fake.api.window, { activeTextEditor: other });
    await running;
    const ask = lastAsk();
    expect(ask).toContain(
      "Problems in /w/demo.js, lines 3-6:\n```text\n4:3 warning [eslint no-unused] 'drop me' is unused\n```",
    );
    expect(ask).not.toContain('far away');
    expect(ask).toContain('File /w/demo.js (javascript), lines 3-6:\n```javascript\nfunction old() {');
    expect(ask).not.toContain('const other');
    expect(ask).toMatch(/Instruction: fix in \[\[rewrite\]\]$/);
  });

  it('a reference that cannot be read is told with its reason; cancel sends nothing and keeps the prompt', async () => {
    fake.state.answers.push(undefined);
    await edit('fix #problems [[rewrite]]');
    const told = fake.state.messages.at(-1)!;
    expect(told.level).toBe('warning');
    expect(told.text).toBe('Edit with Keyward: #problems: the file (or the selection) has no problems.');
    expect(told.items).toEqual(['Send Without It', 'Back to the Prompt']);
    expect(completions()).toHaveLength(0);
    expect(text()).toBe(CODE);
    expect(s.state.get(HISTORY_KEY)).toEqual(['fix #problems [[rewrite]]']);
  });

  it('"Back to the Prompt" opens the box on the text as typed; "Send Without It" sends the rest', async () => {
    fake.state.answers.push('Back to the Prompt', 'Send Without It');
    s.prompts.push('fix #problems [[rewrite]]');
    await edit('fix #problems [[rewrite]]');
    expect(s.shapes.map((shape) => shape.value)).toEqual(['', 'fix #problems [[rewrite]]']);
    expect(completions()).toHaveLength(1);
    expect(lastAsk()).not.toContain('Problems in');
    expect(lastAsk()).toMatch(/Instruction: fix \[\[rewrite\]\]$/);
  });

  it('the secret guard reads what a reference adds: a key in the file is asked about, and cancel sends nothing', async () => {
    s.editor.document.text = `${CODE}\nconst key = "${routerKey()}";`;
    s.editor.selection = new Selection(new Position(3, 2), new Position(3, 2));
    await edit('tidy #file [[rewrite]]');
    expect(s.asked).toHaveLength(1);
    expect(completions()).toHaveLength(0);
  });
});

describe('the inline edit box', () => {
  /** The edit asked through the real box (the fake's Quick Pick), until the test sends or closes it. */
  async function openBox() {
    s.dispose();
    s = setup(bed, { prompt: undefined });
    await s.keys.setKey('router', bed.emulator.sandbox!.keys.routerFunded);
    const running = s.edits.run();
    await vi.waitFor(() => expect(fake.state.quickPick?.visible).toBe(true));
    const box = fake.state.quickPick as unknown as FakeQuickPick<{
      label: string;
      description?: string;
      detail?: string;
    }>;
    return { box, running, labels: () => box.items.map((i) => i.label) };
  }

  it('lists the references while the text ends in a # word that matches one, and not otherwise', async () => {
    const { box, running, labels } = await openBox();
    expect(box.title).toMatch(/^Edit with Keyward: .+ on Routing service$/);
    expect(labels()).toEqual(['lines 3–6 of /w/demo.js']);
    box.type('tidy #');
    expect(labels()).toEqual(['#file', '#selection', '#problems', '#changes', '#terminal']);
    expect(box.items[0]!.description).toBe('The whole file in the editor');
    // Up and Down move in the list while it is shown, and walk the history again once it closes.
    expect(contexts.filter(([key]) => key === 'keyward.inlineEditInput').map(([, on]) => on)).toEqual([true, false]);
    box.type('tidy #fi');
    expect(labels()).toEqual(['#file']);
    box.type('tidy #x');
    expect(labels()).toEqual(['lines 3–6 of /w/demo.js']);
    box.type('tidy #pr');
    box.accept(box.items[0]!);
    expect(box.value).toBe('tidy #problems ');
    expect(box.visible).toBe(true);
    expect(labels()).toEqual(['lines 3–6 of /w/demo.js']);
    expect(contexts.at(-1)).toEqual(['keyward.inlineEditInput', true]);
    box.hide();
    await running;
    expect(completions()).toHaveLength(0);
  });

  it('shows what the references add and why one cannot go, opens the exact text sent, and Enter sends', async () => {
    const { box, running } = await openBox();
    box.type('tidy #file #problems [[rewrite]]');
    await vi.waitFor(() => expect(box.items[0]!.description).toBe('Adds: #file (/w/demo.js)'));
    expect(box.items[0]!.detail).toBe(
      '$(warning) #problems: the file (or the selection) has no problems. Delete its #word to send without it.',
    );
    box.type('tidy #file [[rewrite]]');
    await vi.waitFor(() => expect(box.items[0]!.detail).toBe('To leave a reference out, delete its #word.'));
    box.press(/Show what is sent/);
    await vi.waitFor(() => expect(opened).toHaveLength(1));
    expect(opened[0]).toMatch(/^Edit with Keyward: .+ on Routing service: what is sent\./);
    expect(opened[0]).toContain('## system\n\nYou edit code');
    expect(opened[0]).toContain(
      `## user\n\nWhat the instruction points at:\n\nFile /w/demo.js (javascript), lines 1-8:`,
    );
    expect(opened[0]).toContain('Instruction: tidy [[rewrite]]');
    expect(box.visible).toBe(true);
    box.accept(box.items[0]!);
    await running;
    expect(lastAsk()).toContain(`File /w/demo.js (javascript), lines 1-8:\n\`\`\`javascript\n${CODE}\n\`\`\``);
    // What the document showed is what was sent (keys aside: none here).
    expect(opened[0]).toContain(lastAsk());
  });

  it('shows a key in what is sent masked', async () => {
    const key = routerKey();
    const { box, running } = await openBox();
    s.editor.document.text = `${CODE}\nconst key = "${key}";`;
    box.type('tidy #file');
    box.press(/Show what is sent/);
    await vi.waitFor(() => expect([fake.state.messages, opened]).toEqual([[], [expect.any(String)]]));
    expect(opened[0]).not.toContain(key);
    expect(opened[0]).toMatch(/sk-or-v1-…/);
    box.hide();
    await running;
  });
});
