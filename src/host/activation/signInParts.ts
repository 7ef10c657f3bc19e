// Sign in to the Routing Service, and the extension's one URI handler, which routes a browser's answer by its path.
// The handler is registered at activation (the answer can come any time a sign-in waits); what it runs, the sign-in
// itself, loads with the on-demand commands on first use.
import * as vscode from 'vscode';
import { CommandId } from '../commandIds.ts';
import type { RouterSignIn } from '../keys/routerSignIn.ts';
import { command } from './command.ts';
import type { KeywardCore } from './keywardCore.ts';
import { onDemand } from './onDemand.ts';

/** Where each answer goes: the path of `<scheme>://<publisher>.<name><path>?…` (routerSignIn.ts SIGN_IN_PATH). */
const URI_ROUTES = { '/signin': 'signIn' } as const;

export function signInPartsOf(context: vscode.ExtensionContext, core: KeywardCore): vscode.Disposable[] {
  let loading: Promise<RouterSignIn> | undefined;
  const signIn = (): Promise<RouterSignIn> =>
    (loading ??= onDemand().then(
      ({ RouterSignIn }) => new RouterSignIn(core.configuration, core.log, core.keyCommands, context.extension.id),
    ));
  return [
    command(CommandId.signInRouter, async (args?: unknown) => (await signIn()).run(args)),
    vscode.window.registerUriHandler({
      handleUri: async (uri) => {
        if (uri.path in URI_ROUTES) return (await signIn()).handleUri(uri);
        // The path alone: the query of a stray link could carry anything.
        core.log.warn(`Ignored a link to Keyward with an unknown path (${uri.path.slice(0, 60)}).`);
      },
    }),
  ];
}
