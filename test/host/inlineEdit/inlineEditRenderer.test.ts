// The inline edit's diff colours in each of VS Code's four theme kinds (issue 34: "looked at in the four themes").
// VS Code's line backgrounds of a diff have no value in the high-contrast themes; the diff editor marks its lines
// there with the text borders instead (a dashed outline). The table is VS Code 1.139's defaults from its colour
// registry (diffEditorColors / colorRegistry); a colour a theme kind leaves undefined paints nothing, as the
// decoration's ThemeColor then resolves to "transparent" (codeEditorService's resolveValue).
import { describe, expect, it } from 'vitest';
import { StreamLineDiff } from '../../../src/core/chat/streamLineDiff.ts';
import { DiffRenderer, diffStyles } from '../../../src/host/inlineEdit/inlineEditRenderer.ts';
import { PendingEdit } from '../../../src/host/inlineEdit/inlineEditSession.ts';
import { FakeTextDocument, FakeTextEditor, showEditor } from '../fakeTextEditor.ts';
import { Range } from '../fakeVscode.ts';
import { fake } from '../vscodeShim.ts';

type Kind = 'dark' | 'light' | 'hcDark' | 'hcLight';
const KINDS: Kind[] = ['dark', 'light', 'hcDark', 'hcLight'];

const VS_CODE_DEFAULTS: Record<string, Record<Kind, string | null>> = {
  'diffEditor.insertedLineBackground': {
    dark: 'rgba(155,185,85,0.2)',
    light: 'rgba(155,185,85,0.2)',
    hcDark: null,
    hcLight: null,
  },
  'diffEditor.removedLineBackground': {
    dark: 'rgba(255,0,0,0.2)',
    light: 'rgba(255,0,0,0.2)',
    hcDark: null,
    hcLight: null,
  },
  'diffEditor.insertedTextBorder': { dark: null, light: null, hcDark: '#33ff2eff', hcLight: '#374E06' },
  'diffEditor.removedTextBorder': { dark: null, light: null, hcDark: '#FF008F', hcLight: '#AD0707' },
};

interface Options {
  backgroundColor?: { id: string };
  borderColor?: { id: string };
  borderStyle?: string;
  borderWidth?: string;
  textDecoration?: string;
}

/** What a line of the style shows in a theme kind: its background, else its border; undefined when neither. */
function paint(options: Options, kind: Kind): string | undefined {
  const colour = (id: string | undefined) => {
    if (!id) return undefined;
    const value = VS_CODE_DEFAULTS[id];
    if (!value) throw new Error(`no VS Code default recorded for ${id}`);
    return value[kind] ?? undefined;
  };
  const background = colour(options.backgroundColor?.id);
  if (background) return `background ${background}`;
  const border = colour(options.borderColor?.id);
  const drawn = border && options.borderStyle && options.borderStyle !== 'none' && options.borderWidth !== '0';
  return drawn ? `border ${options.borderStyle} ${border}` : undefined;
}

const styles = diffStyles() as unknown as Record<'removed' | 'added', { options: Options }>;

describe('the inline diff in the four theme kinds', () => {
  it.each(KINDS)('%s: added lines and removed lines each show a colour, and not the same one', (kind) => {
    const removed = paint(styles.removed.options, kind);
    const added = paint(styles.added.options, kind);
    expect(removed, 'the removed lines').toBeDefined();
    expect(added, 'the added lines').toBeDefined();
    expect(added).not.toBe(removed);
  });

  it('in high contrast the lines are outlined as the diff editor outlines them: the text borders, dashed', () => {
    expect(styles.added.options).toMatchObject({
      borderColor: { id: 'diffEditor.insertedTextBorder' },
      borderStyle: 'dashed',
      borderWidth: '1px',
    });
    expect(styles.removed.options).toMatchObject({
      borderColor: { id: 'diffEditor.removedTextBorder' },
      borderStyle: 'dashed',
      borderWidth: '1px',
    });
  });

  it('removed lines are struck through too: told apart without colour', () => {
    expect(styles.removed.options.textDecoration).toBe('line-through');
    expect(styles.added.options.textDecoration).toBeUndefined();
  });
});

describe('the renderer when the person types', () => {
  it('let go (cleared) while more was queued, it writes and marks nothing more', async () => {
    const document = new FakeTextDocument('/w/r.js', 'head\none\ntwo\nthree\ntail');
    const editor = new FakeTextEditor(document);
    showEditor(editor);
    const foreign: unknown[] = [];
    // As the inline edit does for a change inside its lines: it lets go, and the renderer is cleared.
    const renderer: DiffRenderer = new DiffRenderer(document as never, 1, 3, diffStyles(), (event) => {
      foreign.push(event);
      renderer.clear();
    });
    // The document's changes reach the renderer as the inline edit routes them.
    const listening = fake.state.documentChanges.event((event) => renderer.changed(event as never));
    const diff = new StreamLineDiff(['one', 'two', 'three']);
    renderer.enqueue(diff.push('ONE'));
    await renderer.flush();
    expect(document.text).toContain('ONE');
    expect(editor.decorated().added).not.toEqual([]);
    editor.inFlight = () => {
      editor.inFlight = undefined;
      editor.type(new Range(3, 0, 3, 0), 'x');
    };
    renderer.enqueue(diff.push('TWO'));
    renderer.enqueue(diff.push('THREE'));
    await renderer.flush();
    const written = editor.edits;
    await renderer.review();
    expect(foreign).toHaveLength(1);
    expect(document.text).not.toContain('TWO');
    expect(editor.edits).toBe(written);
    expect(editor.decorated()).toEqual({ removed: [], added: [] });
    listening.dispose();
  });

  it('Undo All with lines still queued (not yet written) puts back every one, those written by it too', async () => {
    const original = 'head\none\ntwo\nthree\ntail';
    const document = new FakeTextDocument('/w/q.js', original);
    showEditor(new FakeTextEditor(document));
    const edit = new PendingEdit(
      {
        choice: { service: 'router', model: 'm' },
        instruction: 'add',
        code: 'one\ntwo\nthree',
        place: { file: 'q.js', languageId: 'javascript', startLine: 2 },
      },
      document as never,
      1,
      diffStyles(),
      () => undefined,
    );
    // A line added after each old one, none written yet: the frame that writes them has not come. Written, they
    // make six rows, the last added ones past the three there were when Undo All was asked.
    edit.onDelta('one\nNEW\ntwo\nNEW\nthree\nNEW\n');
    expect(document.text).toBe(original);
    expect(await edit.resolveAll(false)).toBe(true);
    expect(document.text).toBe(original);
    edit.dispose();
  });
});
