// The codicons the panel draws. The build ships a font holding only these glyphs
// (and a stylesheet naming only these), so an icon used here but missing from
// the list fails the build instead of drawing an empty box.
export const CODICONS = [
  'add',
  'arrow-up',
  'check',
  'chevron-down',
  'chevron-left',
  'chevron-right',
  'clock',
  'close',
  'copy',
  'debug-stop',
  'discard',
  'edit',
  'error',
  'file',
  'files',
  'git-compare',
  'insert',
  'key',
  'loading',
  'link-external',
  'lock',
  'refresh',
  'replace',
  'search',
  'selection',
  'send',
  'settings-gear',
  'warning',
  'terminal',
  'file-media',
] as const;

export type Codicon = (typeof CODICONS)[number];
