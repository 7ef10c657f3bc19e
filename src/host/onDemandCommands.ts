// The handlers of commands that activation never runs: the workspace and history scans and the history's view, the
// status item's and the usage tier's quick picks, the model settings editor, the language model key manager, the
// quick fixes that write, the key liveness check, the key commands and the routing service's sign-in, the pre-commit hook's install, the
// conversation list and its commands (rename, delete, clear, export), the inline edit, and the generic key commands' pick of a service. esbuild.js (ON_DEMAND) builds this file as dist/commands.js, which a command loads
// on its first run (a dynamic import in extension.ts or the class that offers the command), so that
// dist/extension.js neither holds nor parses them at activation (bench/bundle.ts).
export { scanHistory, scanWorkspace } from './scan/workspaceScan.ts';
export { pickUsageTier, showStatusActions } from './status/statusActions.ts';
export { manageLanguageModelKeys } from './lm/manageKeys.ts';
export { editModelSettings } from './chat/modelSettingsEditor.ts';
export { KeyFixWrites } from './scan/keyFixWrites.ts';
export { keyFixActions } from './scan/keyFixActions.ts';
export { checkKeyLive, livenessActions } from './scan/keyLivenessCheck.ts';
export { KeyCommands } from './keys/keyCommands.ts';
export { RouterSignIn } from './keys/routerSignIn.ts';
export { installHookCommand } from './scan/preCommitHookRun.ts';
export { GitHistoryView } from './scan/gitHistoryView.ts';
export { ConversationCommands } from './chat/conversationCommands.ts';
export { addAccountKey, removeAccountKey } from './keys/accountKeyCommands.ts';
export { showKeyList } from './keys/keyList.ts';
export { SpendWatch } from './status/spendWatch.ts';
export { createWorkspaceKey } from './keys/workspaceKey.ts';
export { stopFoundKey } from './keys/stopFoundKey.ts';
export { InlineEdits } from './inlineEdit/inlineEdit.ts';
export { serviceToSet, serviceWithKey } from './keys/servicePick.ts';
