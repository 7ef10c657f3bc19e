import type { DescribedCommandId } from '../core/services/descriptors.ts';

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
  setCompatibleKey: 'keyward.setCompatibleKey',
  verifyCompatibleKey: 'keyward.verifyCompatibleKey',
  rotateCompatibleKey: 'keyward.rotateCompatibleKey',
  deleteCompatibleKey: 'keyward.deleteCompatibleKey',
  setKeyExpiry: 'keyward.setKeyExpiry',
  setUsageTier: 'keyward.setUsageTier',
  refreshStatus: 'keyward.refreshStatus',
  routerActions: 'keyward.routerActions',
  directActions: 'keyward.directActions',
  compatibleActions: 'keyward.compatibleActions',
  openPanel: 'keyward.openPanel',
  askAboutSelection: 'keyward.askAboutSelection',
  clearHistory: 'keyward.clearHistory',
  exportHistory: 'keyward.exportHistory',
  openChat: 'keyward.openChat',
  showLastAnswer: 'keyward.showLastAnswer',
  newConversation: 'keyward.newConversation',
  showConversations: 'keyward.showConversations',
  renameConversation: 'keyward.renameConversation',
  deleteConversation: 'keyward.deleteConversation',
  importKeys: 'keyward.importKeys',
  acceptProposal: 'keyward.acceptProposal',
  discardProposal: 'keyward.discardProposal',
  scanWorkspace: 'keyward.scanWorkspace',
  scanHistory: 'keyward.scanHistory',
  historyRotateKey: 'keyward.historyRotateKey',
  historyCopyCommit: 'keyward.historyCopyCommit',
  historyOpen: 'keyward.historyOpen',
  checkKeyLive: 'keyward.checkKeyLive',
  installPreCommitHook: 'keyward.installPreCommitHook',
  manageLanguageModels: 'keyward.manageLanguageModels',
  manageLanguageModelAccess: 'keyward.manageLanguageModelAccess',
  /** Set Key… for any service: its argument, else a picker (each service's own Set Key stays, an alias). */
  setKey: 'keyward.setKey',
  /** Verify, Rotate and Delete Key… for any service with a stored key (each service's own command stays, an alias). */
  verifyKey: 'keyward.verifyKey',
  rotateKey: 'keyward.rotateKey',
  deleteKey: 'keyward.deleteKey',
  /** A management key (routing service) or an admin key (direct service): its argument names the service. */
  addAccountKey: 'keyward.addAccountKey',
  removeAccountKey: 'keyward.removeAccountKey',
  /** Every key of the account, as the stored management or admin key sees it, with what may be done to each. */
  manageKeys: 'keyward.manageKeys',
  /** With a management key: a limited routing key of this workspace's own, stored straight into SecretStorage. */
  createWorkspaceKey: 'keyward.createWorkspaceKey',
  /** Sign in to the routing service in the browser (OAuth PKCE): a key without pasting one. */
  signInRouter: 'keyward.signInRouter',
  /** Edit with Keyward…: the selected lines (or the function around the cursor) rewritten in place as a diff. */
  editInline: 'keyward.editInline',
  inlineEditKeepAll: 'keyward.inlineEditKeepAll',
  inlineEditUndoAll: 'keyward.inlineEditUndoAll',
  inlineEditKeepHunk: 'keyward.inlineEditKeepHunk',
  inlineEditUndoHunk: 'keyward.inlineEditUndoHunk',
  inlineEditStop: 'keyward.inlineEditStop',
  /** Up and Down in the inline edit's input box: the earlier prompts. */
  inlineEditHistoryPrevious: 'keyward.inlineEditHistoryPrevious',
  inlineEditHistoryNext: 'keyward.inlineEditHistoryNext',
} as const;

/**
 * Every command id: the table above, and each service's key commands as its row in core/services/descriptors.ts
 * names them (a new service's row declares its own; package.json contributes them, test/core/services/descriptors.test.ts
 * checks it does).
 */
export type CommandId = (typeof CommandId)[keyof typeof CommandId] | DescribedCommandId;
