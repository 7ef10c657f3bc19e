// Sign in to the Routing Service: OAuth PKCE in the browser, no key pasted. The page opens with `env.openExternal`, the
// answer comes back through the extension's URI handler (/signin, with this attempt's nonce) by way of
// `env.asExternalUri`, so it reaches code-server and remote windows too; the code is exchanged once; the key is
// checked with the service before it is stored, then stored through Set Key's own path (SecretStorage, metadata, the
// verification notice). Every way it can end without a key says what to do, and the stored key stays as it was.
// Loaded with the other on-demand commands (dist/commands.js).
import * as vscode from 'vscode';
import { SERVICE_NAMES } from '../../core/errors.ts';
import { type SignInAttempt, SignInError, type SignInReason, SignIns } from '../../core/keys/signInAttempt.ts';
import { SERVICES, baseUrlOf, pagesOf } from '../../core/services/descriptors.ts';
import { checkKey } from '../../core/services/keyCheck.ts';
import type { Configuration } from '../configuration.ts';
import type { Log } from '../log.ts';
import type { KeyCommands } from './keyCommands.ts';

const t = vscode.l10n.t;

/** The URI handler's path for the answer of a sign-in. */
export const SIGN_IN_PATH = '/signin';

/** What a caller may pass the command (tests): a shorter wait for the browser. Anything else is ignored. */
export interface SignInArgs {
  timeoutMs?: number;
}

function timeoutOf(args: unknown): number | undefined {
  const value = (args as SignInArgs | undefined)?.timeoutMs;
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : undefined;
}

/**
 * The page's address as a string: `env.openExternal` given a string opens exactly that (the extension host parses it
 * but sends the string along), while a `Uri` is re-encoded on the way and the callback nested in the query, which
 * code-server's own callback address holds escaped, would come out broken.
 */
const openExact = (url: string) => vscode.env.openExternal(url as unknown as vscode.Uri);

/**
 * The callback address as the browser must open it: its parts as they are. code-server's comes back as a path that
 * holds its own query ("…/callback?vscode-reqid=…&vscode-query=nonce%3D…"), which `toString()`, and even
 * `toString(true)`, escape into "callback%3F…", a page that does not exist (seen in the real-host sign-in step); a
 * desktop window's "vscode://…/signin?nonce=…" (a base64url nonce) is the same either way.
 */
export function browserAddress(uri: vscode.Uri): string {
  const query = uri.query ? `?${uri.query}` : '';
  return `${uri.scheme}://${uri.authority}${uri.path}${query}${uri.fragment ? `#${uri.fragment}` : ''}`;
}

export class RouterSignIn {
  private readonly signIns = new SignIns();
  private readonly configuration: Configuration;
  private readonly log: Log;
  private readonly keyCommands: () => Promise<KeyCommands>;
  private readonly extensionId: string;

  constructor(configuration: Configuration, log: Log, keyCommands: () => Promise<KeyCommands>, extensionId: string) {
    this.configuration = configuration;
    this.log = log;
    this.keyCommands = keyCommands;
    this.extensionId = extensionId;
  }

  /** The command: true when a new key is stored. */
  async run(args?: unknown): Promise<boolean> {
    const config = this.configuration.value;
    const baseUrl = baseUrlOf(config, 'router') ?? config.router.baseUrl;
    const timeoutMs = timeoutOf(args);
    const attempt = this.signIns.start({
      baseUrl,
      ...config.network,
      ...(timeoutMs ? { timeoutMs } : {}),
      // With the wire clients, which hold the transport: not a second copy of it in this command's file.
      exchange: async (options) => (await import('../../core/wire/wireClients.ts')).exchangeCode(options),
    });
    this.log.info(`Signing in to the ${SERVICE_NAMES.router} at ${baseUrl}: opening its sign-in page in the browser.`);
    try {
      const callback = await vscode.env.asExternalUri(
        vscode.Uri.parse(`${vscode.env.uriScheme}://${this.extensionId}${SIGN_IN_PATH}?nonce=${attempt.nonce}`),
      );
      if (!(await openExact(attempt.authUrl(browserAddress(callback))))) {
        attempt.cancel();
        await this.tell(
          new SignInError('cancelled', 'The browser did not open.'),
          t('The browser could not be opened for the sign-in. Your stored key is unchanged.'),
        );
        return false;
      }
    } catch (error) {
      attempt.cancel();
      if (!(error instanceof SignInError)) throw error;
      await this.tell(error);
      return false;
    }
    return this.waitAndStore(attempt);
  }

  /** The URI handler's /signin: a browser came back. Refusals of callbacks this window cannot use are said here. */
  async handleUri(uri: vscode.Uri): Promise<void> {
    try {
      await this.signIns.callback(uri.query);
    } catch (error) {
      if (!(error instanceof SignInError)) throw error;
      this.log.warn(`Refused a sign-in answer: ${error.reason}.`);
      await this.tell(error);
    }
  }

  private async waitAndStore(attempt: SignInAttempt): Promise<boolean> {
    const outcome = await vscode.window
      .withProgress(
        {
          location: vscode.ProgressLocation.Notification,
          title: t('Signing in to the routing service: approve Keyward in the browser page that opened.'),
          cancellable: true,
        },
        (_progress, token) => {
          token?.onCancellationRequested(() => attempt.cancel());
          return attempt.result;
        },
      )
      .then(
        (key) => ({ key }),
        (error: unknown) => ({ error }),
      );
    if ('error' in outcome) {
      if (!(outcome.error instanceof SignInError)) throw outcome.error;
      this.log.warn(`Sign-in to the ${SERVICE_NAMES.router} ended without a key: ${outcome.error.reason}.`);
      await this.tell(outcome.error);
      return false;
    }
    const key = outcome.key;
    // Checked before it is stored: a key the service does not accept must not replace one that works.
    const check = await checkKey('router', key.reveal(), this.configuration.value);
    if (!check.ok) {
      this.log.warn(`The key the sign-in gave (${key.masked}) was not accepted: ${check.error.kind}.`);
      await this.offerAgain(
        t(
          'The routing service gave a key that it then did not accept ({0}). Nothing was stored; your stored key is unchanged.',
          check.error.message,
        ),
      );
      return false;
    }
    const stored = await (
      await this.keyCommands()
    ).setKey('router', { key: key.reveal(), label: t('Signed in from VS Code') });
    if (stored !== 'router') return false;
    this.log.info(`Signed in to the ${SERVICE_NAMES.router}: stored the new key ${key.masked}.`);
    const open = t('Open Keys Page');
    const page = pagesOf(this.configuration.value, 'router').keys;
    const answer = await vscode.window.showInformationMessage(
      t(
        'Signed in to the routing service. Its new key is in secret storage; give it a credit limit on your keys page.',
      ),
      ...(page ? [open] : []),
    );
    if (answer === open && page) await vscode.env.openExternal(vscode.Uri.parse(page));
    return true;
  }

  /** One message per way a sign-in ends without a key, with what to do. */
  private async tell(error: SignInError, text = this.messageOf(error)): Promise<void> {
    if (error.reason === 'cancelled') {
      void vscode.window.showInformationMessage(text);
      return;
    }
    if (error.reason === 'no_page') {
      const setKey = t('Set Key');
      if ((await vscode.window.showErrorMessage(text, setKey)) === setKey)
        await vscode.commands.executeCommand(SERVICES.router.commands.setKey);
      return;
    }
    await this.offerAgain(text);
  }

  private async offerAgain(text: string): Promise<void> {
    const again = t('Sign In Again');
    if ((await vscode.window.showErrorMessage(text, again)) === again) await this.run();
  }

  private messageOf(error: SignInError): string {
    const unchanged = t('Your stored key is unchanged.');
    const detail = error.serviceError?.message ?? '';
    const texts: Record<SignInReason, () => string> = {
      not_started_here: () =>
        t(
          'Keyward ignored a sign-in answer that this window did not start. If you are signing in, finish in the browser tab this window opened, or run Sign in to the Routing Service again.',
        ),
      code_reused: () => t('This sign-in answer was already used, so it was ignored. {0}', unchanged),
      ended: () =>
        t('This sign-in had already ended (it timed out or was cancelled). {0} Run Sign in again.', unchanged),
      timeout: () => t('No answer came back from the browser in time. {0} Sign in again and approve there.', unchanged),
      cancelled: () => t('Sign-in cancelled. {0}', unchanged),
      denied: () => t('You chose Deny on the routing service page, so no key was made. {0}', unchanged),
      no_code: () => t('The browser came back without a sign-in code. {0} Sign in again.', unchanged),
      refused: () =>
        t(
          'The routing service refused the sign-in: {0} {1} {2}',
          detail || error.message,
          unchanged,
          error.serviceError?.action ?? '',
        ),
      network: () =>
        t(
          'Could not reach the routing service to finish signing in: {0} {1} Check the connection and keyward.router.baseUrl, then sign in again.',
          detail,
          unchanged,
        ),
      no_page: () =>
        t(
          'There is no sign-in page for the routing service base URL (keyward.router.baseUrl): it must be https (http only to this machine) and end in /api/v1. Set a key by hand instead.',
        ),
    };
    return texts[error.reason]().trim();
  }
}
