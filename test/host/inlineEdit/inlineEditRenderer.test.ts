// The inline edit's diff colours in each of VS Code's four theme kinds (issue 34: "looked at in the four themes").
// VS Code's line backgrounds of a diff have no value in the high-contrast themes; the diff editor marks its lines
// there with the text borders instead (a dashed outline). The table is VS Code 1.139's defaults from its colour
// registry (diffEditorColors / colorRegistry); a colour a theme kind leaves undefined paints nothing, as the
// decoration's ThemeColor then resolves to "transparent" (codeEditorService's resolveValue).
import { describe, expect, it } from 'vitest';
import { diffStyles } from '../../../src/host/inlineEdit/inlineEditRenderer.ts';

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
