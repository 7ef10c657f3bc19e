/** Every command the extension contributes; package.json declares the same ids. */
export const CommandId = {
  showLog: 'keyward.showLog',
  setRouterKey: 'keyward.setRouterKey',
  setDirectKey: 'keyward.setDirectKey',
  verifyRouterKey: 'keyward.verifyRouterKey',
  verifyDirectKey: 'keyward.verifyDirectKey',
  rotateRouterKey: 'keyward.rotateRouterKey',
  rotateDirectKey: 'keyward.rotateDirectKey',
  deleteRouterKey: 'keyward.deleteRouterKey',
  deleteDirectKey: 'keyward.deleteDirectKey',
  setKeyExpiry: 'keyward.setKeyExpiry',
  setUsageTier: 'keyward.setUsageTier',
  refreshStatus: 'keyward.refreshStatus',
  routerActions: 'keyward.routerActions',
  directActions: 'keyward.directActions',
  openPanel: 'keyward.openPanel',
  askAboutSelection: 'keyward.askAboutSelection',
  clearHistory: 'keyward.clearHistory',
  exportHistory: 'keyward.exportHistory',
  scanWorkspace: 'keyward.scanWorkspace',
  scanHistory: 'keyward.scanHistory',
  historyRotateKey: 'keyward.historyRotateKey',
  historyCopyCommit: 'keyward.historyCopyCommit',
  historyOpen: 'keyward.historyOpen',
  installPreCommitHook: 'keyward.installPreCommitHook',
} as const;

export type CommandId = (typeof CommandId)[keyof typeof CommandId];
