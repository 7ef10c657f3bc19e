// The quick fixes' own commands (run from a fix, not contributed in package.json): keyFixes.ts registers them and
// keyFixActions.ts puts them on the fixes it offers.
export const FixCommand = {
  moveToEnv: 'keyward.fix.moveToEnv',
  storeAndRemove: 'keyward.fix.storeAndRemove',
  gitignoreFile: 'keyward.fix.gitignoreFile',
  /** With a management or admin key: the found key disabled (or deleted) at its service now. */
  stopKey: 'keyward.fix.stopKey',
} as const;
