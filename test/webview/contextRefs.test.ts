// @vitest-environment jsdom
// Pointing at context in the chat, as the person does it: `#` in the prompt box opens a list of references (arrows,
// Enter or Tab, Escape, a click), the chosen one comes back from the host as a chip that Remove takes away, "Show
// what is sent" shows the exact text, a refusal is said under the box, and an image pasted for a model that reads
// images is a chip and goes with the prompt, while one pasted for another model is refused with the reason.
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Attachment, ModelOption, PanelState } from '../../src/shared/protocol.ts';
import { initialState } from '../../src/webview/viewState.ts';
import { $, announced, openPanelPage, posted, send, withRouterKey } from './panelPage.ts';

const box = () => $<HTMLTextAreaElement>('#prompt')!;
const lastPosted = () => posted.at(-1);

const model = (id: string, imageInput: boolean): ModelOption => ({
  id,
  name: id,
  free: false,
  inputPerMillion: 1,
  outputPerMillion: 2,
  imageInput,
});

function type(text: string): void {
  box().value = text;
  box().setSelectionRange(text.length, text.length);
  box().dispatchEvent(new Event('input', { bubbles: true }));
}

function key(name: string): KeyboardEvent {
  const event = new KeyboardEvent('keydown', { key: name, bubbles: true, cancelable: true });
  box().dispatchEvent(event);
  return event;
}

function paste(file: File): void {
  const event = new Event('paste', { bubbles: true, cancelable: true });
  Object.defineProperty(event, 'clipboardData', { value: { files: [file], items: [] } });
  box().dispatchEvent(event);
}

/** Two models on the routing service, one that reads images and one that does not, with `selected` chosen. */
function choosing(selected: string): PanelState {
  const base = initialState();
  return withRouterKey({
    models: { ...base.models, router: [model('vision/model', true), model('text/model', false)] },
    canListModels: { ...base.canListModels, router: true },
    selectedModel: { ...base.selectedModel, router: selected },
  });
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 20));

beforeAll(async () => {
  await openPanelPage();
  send({ type: 'panel/state', state: choosing('vision/model') });
});

beforeEach(() => {
  posted.length = 0;
});

describe('the # completion', () => {
  it('opens on # with every reference, narrows as the name is typed, and is the box’s active descendant', () => {
    type('Explain #');
    const list = $('#context-list')!;
    expect(list.hidden).toBe(false);
    expect(list.getAttribute('role')).toBe('listbox');
    expect(
      [...list.querySelectorAll('[role="option"]')].map((o) => o.querySelector('.context-name')!.textContent),
    ).toEqual(['#file', '#selection', '#problems', '#changes', '#terminal']);
    expect(box().getAttribute('aria-activedescendant')).toBe('context-option-file');
    expect(box().getAttribute('aria-controls')).toBe('context-list');
    type('Explain #pr');
    expect([...list.querySelectorAll('[role="option"]')].map((o) => o.id)).toEqual(['context-option-problems']);
  });

  it('moves with the arrows and chooses with Enter, which does not send: the word leaves the box and the host is asked', () => {
    type('Explain #');
    key('ArrowDown');
    expect(box().getAttribute('aria-activedescendant')).toBe('context-option-selection');
    expect($('#context-option-selection')!.getAttribute('aria-selected')).toBe('true');
    const enter = key('Enter');
    expect(enter.defaultPrevented).toBe(true);
    expect(box().value).toBe('Explain ');
    expect(lastPosted()).toEqual({ type: 'context/attach', name: 'selection' });
    expect(posted.some((m) => m.type === 'chat/send')).toBe(false);
    expect($('#context-list')!.hidden).toBe(true);
    expect(announced()).toBe('Attaching #selection…');
  });

  it('chooses with Tab, and with a click', () => {
    type('#ch');
    key('Tab');
    expect(lastPosted()).toEqual({ type: 'context/attach', name: 'changes' });
    type('see #');
    $('#context-option-terminal')!.click();
    expect(lastPosted()).toEqual({ type: 'context/attach', name: 'terminal' });
    expect(box().value).toBe('see ');
  });

  it('closes on Escape, keeping what was typed', () => {
    type('#fi');
    const escape = key('Escape');
    expect(escape.defaultPrevented).toBe(true);
    expect($('#context-list')!.hidden).toBe(true);
    expect(box().value).toBe('#fi');
    expect(posted).toEqual([]);
  });
});

describe('chips and what is sent', () => {
  const diff: Attachment = {
    id: 'c1',
    fileName: 'HEAD',
    languageId: 'diff',
    startLine: 1,
    endLine: 3,
    text: '-old\n+new',
    context: 'changes',
  };

  it('shows the reference the host sent as a named chip, and Remove takes it away and gives the box the focus', () => {
    send({ type: 'attachment/add', attachment: diff });
    const chip = $('#attachments .chip')!;
    expect(chip.textContent).toContain('#changes');
    expect(chip.querySelector('.codicon-git-compare')).not.toBeNull();
    const remove = chip.querySelector<HTMLButtonElement>('button.chip-remove')!;
    expect(remove.getAttribute('aria-label')).toBe('Remove HEAD');
    remove.click();
    expect($('#attachments .chip')).toBeNull();
    expect(document.activeElement).toBe(box());
  });

  it('"Show what is sent" shows the exact text: the words, then each piece under the line that says what it is', () => {
    send({ type: 'attachment/add', attachment: diff });
    type('Review this');
    const details = $<HTMLDetailsElement>('#sent-text')!;
    expect(details.querySelector('summary')!.textContent).toBe('Show what is sent');
    details.open = true;
    details.dispatchEvent(new Event('toggle'));
    expect($('#sent-text-body')!.textContent).toBe(
      'Review this\n\nChanges in the working tree (git diff HEAD):\n```diff\n-old\n+new\n```',
    );
    $<HTMLButtonElement>('#attachments .chip button.chip-remove')!.click();
  });

  it('the sent prompt names its references as the chips in the box did: #changes, #terminal bash, file:lines', () => {
    const terminal: Attachment = { ...diff, id: 'c2', fileName: 'bash', languageId: 'text', context: 'terminal' };
    const code: Attachment = { ...diff, id: 'c3', fileName: 'src/a.ts', languageId: 'typescript', context: undefined };
    const base = initialState();
    send({
      type: 'panel/state',
      state: {
        ...base,
        hasKey: { ...base.hasKey, router: true },
        models: { ...base.models, router: [model('vision/model', true), model('text/model', false)] },
        canListModels: { ...base.canListModels, router: true },
        selectedModel: { ...base.selectedModel, router: 'vision/model' },
        turns: [
          {
            id: 't1',
            role: 'user',
            text: 'Explain',
            service: 'router',
            model: 'vision/model',
            status: 'done',
            attachments: [diff, terminal, code],
          },
        ],
      } as never,
    });
    const chips = [...document.querySelectorAll('#conversation .turn.user .chip')].map((c) => c.textContent);
    expect(chips).toEqual(['#changes', '#terminal bash', 'a.ts:1-3']);
  });

  it('says under the box why the host could not attach a reference', () => {
    send({ type: 'composer/note', text: '#terminal: no terminal is open.' });
    const note = $('#composer-note')!;
    expect(note.hidden).toBe(false);
    expect(note.getAttribute('role')).toBe('status');
    expect(note.textContent).toBe('#terminal: no terminal is open.');
    type('x');
    expect(note.hidden).toBe(true);
  });
});

describe('images', () => {
  const png = () => new File([new Uint8Array([137, 80, 78, 71, 13, 10, 26, 10])], 'shot.png', { type: 'image/png' });

  it('the model picker says which models take images', () => {
    $<HTMLButtonElement>('#model-button')?.click();
    const details = [...document.querySelectorAll('.model-option')].map((o) => o.textContent ?? '');
    expect(details.find((d) => d.includes('vision/model'))).toContain('images');
    expect(details.find((d) => d.includes('text/model'))).not.toContain('images');
    document.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true }));
  });

  it('a pasted image is a chip for a model that reads images, and goes with the prompt as base64', async () => {
    paste(png());
    // The file is read before its chip shows: on a busy CI machine a fixed wait was too short, and the chip then
    // showed up in the next test.
    const chip = await vi.waitFor(
      () => {
        const shown = $('#images .chip');
        if (!shown) throw new Error('no image chip yet');
        return shown;
      },
      { timeout: 4000, interval: 10 },
    );
    expect(chip.getAttribute('aria-label')).toBe('Image shot.png, 8 B');
    type('What is this?');
    key('Enter');
    const sent = posted.find((m) => m.type === 'chat/send');
    expect(sent).toMatchObject({
      model: 'vision/model',
      images: [{ name: 'shot.png', mimeType: 'image/png', base64: 'iVBORw0KGgo=' }],
    });
    send({ type: 'chat/blocked', requestId: (sent as { requestId: string }).requestId, prompt: '' });
  });

  it('an image pasted for a model whose list does not say it reads images is refused, with the reason, under the box', async () => {
    send({ type: 'panel/state', state: choosing('text/model') });
    $<HTMLButtonElement>('#images .chip button.chip-remove')?.click();
    paste(png());
    await settle();
    expect($('#images .chip')).toBeNull();
    const note = $('#composer-note')!;
    expect(note.hidden).toBe(false);
    expect(note.textContent).toBe(
      'text/model does not take images: its model list does not say it reads them. Pick a model marked "images" in the model picker.',
    );
    expect(announced()).toContain('text/model does not take images');
  });

  it('an image over the limit is refused with its size and the limit named', async () => {
    send({
      type: 'panel/state',
      state: {
        ...initialState(),
        hasKey: { ...initialState().hasKey, router: true },
        models: { ...initialState().models, router: [model('vision/model', true)] },
        canListModels: { ...initialState().canListModels, router: true },
        selectedModel: { ...initialState().selectedModel, router: 'vision/model' },
      } as never,
    });
    const big = new File([new Uint8Array(6 * 1024 * 1024)], 'huge.png', { type: 'image/png' });
    paste(big);
    await settle();
    expect($('#images .chip')).toBeNull();
    expect($('#composer-note')!.textContent).toBe('huge.png is 6.0 MB; an image may be 5.0 MB at most.');
  });
});
