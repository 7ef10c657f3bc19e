/** Every command the extension contributes; package.json declares the same ids. */
export const CommandId = {
  showLog: 'keyward.showLog',
} as const;

export type CommandId = (typeof CommandId)[keyof typeof CommandId];
