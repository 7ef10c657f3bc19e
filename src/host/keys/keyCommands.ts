// Set, verify, rotate and delete keys, and import them from the environment. The key is read from a password box or a
// command argument and goes nowhere but SecretStorage. Loaded with the other on-demand commands (dist/commands.js) on
// the first key command; the startup's offer and reminders are keyReminders.ts.
import * as vscode from 'vscode';
import type { ServiceId } from '../../shared/serviceIds.ts';
import type { AccountMonitor, AccountVerification } from '../../core/monitor/accountMonitor.ts';
import type { Configuration } from '../configuration.ts';
import { SERVICE_NAMES } from '../../core/errors.ts';
import { checkKeyForSlot } from '../../core/keys/keyFormats.ts';
import { type KeyStore, SecretStorageUnavailable } from '../../core/keys/keyStore.ts';
import { SERVICES, SERVICE_IDS, pagesOf } from '../../core/services/descriptors.ts';
import { serviceModule } from '../../core/services/registry.ts';
import type { Log } from '../log.ts';
import { serviceLabel, serviceTitle } from '../serviceNames.ts';
import { canRotateManaged, rotateManaged } from './managedRotation.ts';
import { canRotateWithAdmin, rotateWithAdmin } from './adminRotation.ts';

const t = vscode.l10n.t;
const title = (service: ServiceId) => serviceTitle(service);

/** Options for calling the commands from code (tests, the environment import). */
export interface SetKeyArgs {
  key?: string;
  label?: string;
  /** Accept a key that belongs to the other service into that service's slot without asking. */
  acceptOtherSlot?: boolean;
  /** Store a key of unknown shape without asking. */
  acceptWarning?: boolean;
  /** Do not show result notifications (used by the environment import). */
  quiet?: boolean;
}

export class KeyCommands {
  private readonly keys: KeyStore;
  private readonly monitor: AccountMonitor;
  private readonly configuration: Configuration;
  private readonly log: Log;
  private readonly state: vscode.Memento;

  constructor(keys: KeyStore, monitor: AccountMonitor, configuration: Configuration, log: Log, state: vscode.Memento) {
    this.keys = keys;
    this.monitor = monitor;
    this.configuration = configuration;
    this.log = log;
    this.state = state;
  }

  private async storageFailed(error: unknown): Promise<void> {
    if (error instanceof SecretStorageUnavailable) {
      this.log.error(error.message);
      await vscode.window.showErrorMessage(t('Keyward cannot store keys: {0}', error.message), { modal: true });
      return;
    }
    throw error;
  }

  /** Returns the slot the key ended up in, or undefined when nothing was stored. */
  async setKey(slot: ServiceId, args: SetKeyArgs = {}): Promise<ServiceId | undefined> {
    const key =
      args.key ??
      (await vscode.window.showInputBox({
        title: t('Set {0} key', title(slot)),
        prompt: t(SERVICES[slot].keyPrompt),
        password: true,
        ignoreFocusOut: true,
        placeHolder: SERVICES[slot].keyPlaceholder,
      }));
    if (!key) return undefined;
    const check = checkKeyForSlot(slot, key);
    let target = slot;
    if (check.verdict === 'refuse') {
      await vscode.window.showErrorMessage(check.message);
      return undefined;
    }
    if (check.verdict === 'other_service') {
      const store = t('Store as {0} key', title(check.service));
      const answer = args.acceptOtherSlot
        ? store
        : await vscode.window.showWarningMessage(
            t('{0} Store it in the {1} slot instead?', check.message, title(check.service)),
            { modal: true },
            store,
          );
      if (answer !== store) return undefined;
      target = check.service;
    }
    if (check.verdict === 'warn' && !args.acceptWarning) {
      const anyway = t('Store anyway');
      if ((await vscode.window.showWarningMessage(check.message, { modal: true }, anyway)) !== anyway) return undefined;
    }
    try {
      await this.keys.setKey(target, key, args.label ? { label: args.label } : {});
    } catch (error) {
      await this.storageFailed(error);
      return undefined;
    }
    this.monitor.reset(target);
    this.log.info(`Stored a ${SERVICE_NAMES[target]} key ${this.keys.metadata(target)?.masked ?? ''}.`);
    const verification = await this.monitor.verify(target);
    await this.afterVerify(verification, args.quiet === true);
    return target;
  }

  async verify(service: ServiceId, quiet = false): Promise<AccountVerification | undefined> {
    const keyless = SERVICES[service].capabilities.keyOptional;
    if (!keyless && !this.keys.metadata(service) && !(await this.keys.getKey(service).catch(() => undefined))) {
      if (!quiet) {
        const set = t('Set Key');
        if ((await vscode.window.showInformationMessage(t('No {0} key is stored.', title(service)), set)) === set)
          await this.setKey(service);
      }
      return undefined;
    }
    const verification = await this.monitor.verify(service);
    await this.afterVerify(verification, quiet);
    return verification;
  }

  private async afterVerify(verification: AccountVerification, quiet: boolean): Promise<void> {
    const service = verification.service;
    const config = this.configuration.value;
    if (verification.ok && this.keys.metadata(service)) {
      await this.keys.updateMetadata(service, {
        lastVerifiedAt: new Date().toISOString(),
        ...('expiresAt' in verification && verification.expiresAt ? { expiresAt: verification.expiresAt } : {}),
      });
    }
    if (quiet) return;
    if (!verification.ok) {
      const error = verification.error;
      this.log.warn(`Verifying the ${SERVICE_NAMES[service]} key: ${error.kind}: ${error.message}`);
      const setKey = t('Set Key');
      const answer = await vscode.window.showErrorMessage(
        error.kind === 'auth'
          ? t('The {0} does not accept this key: {1}', SERVICE_NAMES[service], error.message)
          : t('Could not verify the {0} key: {1}', SERVICE_NAMES[service], error.message),
        setKey,
      );
      if (answer === setKey) await this.setKey(service);
      return;
    }
    // What the check saw, in the service module's words (core/services/<id>.ts).
    const notice = serviceModule(service).account.notice(
      verification,
      pagesOf(config, service),
      serviceTitle(service, config),
    );
    const message = t(notice.message, ...notice.args.map((arg) => t(arg)));
    if (!notice.open) {
      void (notice.severity === 'warning'
        ? vscode.window.showWarningMessage(message)
        : vscode.window.showInformationMessage(message));
      return;
    }
    // Not awaited: a notice with a button stays until the person answers it, and the flows that store a key through
    // here (sign-in, Rotate) go on meanwhile. Seen in the real host: the sign-in's own message never came.
    const open = t(notice.open.label);
    const url = notice.open.url;
    void (
      notice.severity === 'warning'
        ? vscode.window.showWarningMessage(message, open)
        : vscode.window.showInformationMessage(message, open)
    ).then((answer) => (answer === open ? vscode.env.openExternal(vscode.Uri.parse(url)) : undefined));
  }

  /** `remindOld` false: the caller deals with the old key itself (the admin key's Rotate deletes it). */
  async rotate(service: ServiceId, newKey?: string, remindOld = true): Promise<boolean> {
    // With a management key, in one step: a new key made, stored, verified, and the old one retired.
    if (newKey === undefined && canRotateManaged(service, this.keys))
      return rotateManaged(
        { keys: this.keys, monitor: this.monitor, configuration: this.configuration, log: this.log },
        service,
      );
    // With an admin key: the successor from the stored key's own project, the old key deleted once confirmed.
    if (newKey === undefined && canRotateWithAdmin(service, this.keys)) {
      const done = await rotateWithAdmin({ keys: this.keys, configuration: this.configuration }, service, (key) =>
        this.rotate(service, key, false),
      );
      if (done !== undefined) return done;
    }
    const config = this.configuration.value;
    const page = pagesOf(config, service).keys;
    if (newKey === undefined && page) await vscode.env.openExternal(vscode.Uri.parse(page));
    const key =
      newKey ??
      (await vscode.window.showInputBox({
        title: t('Rotate {0} key', title(service)),
        prompt: page
          ? t('Create a new key on the page that just opened (with a credit limit and an expiry), then paste it here.')
          : t('Paste the new key. The old one is remembered, so Keyward flags it if it still appears in your files.'),
        password: true,
        ignoreFocusOut: true,
      }));
    if (!key) return false;
    const check = checkKeyForSlot(service, key);
    if (check.verdict === 'refuse' || check.verdict === 'other_service') {
      await vscode.window.showErrorMessage(check.message);
      return false;
    }
    const old = this.keys.metadata(service);
    let previousKey: string | undefined;
    try {
      previousKey = await this.keys.getKey(service);
      await this.keys.setKey(service, key);
    } catch (error) {
      await this.storageFailed(error);
      return false;
    }
    this.monitor.reset(service);
    const verification = await this.monitor.verify(service);
    if (!verification.ok && verification.error.kind === 'auth') {
      // The new key does not work: put the old one back rather than leave the user with none.
      // The refused key never served, so it is not remembered as rotated out.
      if (previousKey)
        await this.keys.setKey(service, previousKey, {
          retirePrevious: false,
          ...(old ? { label: old.label, expiresAt: old.expiresAt } : {}),
        });
      else await this.keys.deleteKey(service, { retire: false });
      this.monitor.reset(service);
      void this.monitor.verify(service);
      await vscode.window.showErrorMessage(
        t(
          'The new {0} key was not accepted ({1}); the old key stays in place.',
          SERVICE_NAMES[service],
          verification.error.message,
        ),
      );
      return false;
    }
    await this.afterVerify(verification, true);
    this.log.info(
      `Rotated the ${SERVICE_NAMES[service]} key: ${old?.masked ?? 'none'} -> ${this.keys.metadata(service)?.masked}.`,
    );
    if (remindOld) this.remindOldKey(service, old?.masked, page);
    return true;
  }

  /** After a rotation by hand: the old key still works until it is deleted at the service. */
  private remindOldKey(service: ServiceId, masked: string | undefined, page: string | null): void {
    const openPage = t('Open Keys Page');
    void vscode.window
      .showWarningMessage(
        masked
          ? t(
              'Key rotated. Now delete the old key {0} at the {1}: until then it still works for anyone who has it. Keyward will flag it if it still appears in your files.',
              masked,
              SERVICE_NAMES[service],
            )
          : t('Key stored.'),
        openPage,
      )
      .then((answer) => (answer === openPage && page ? vscode.env.openExternal(vscode.Uri.parse(page)) : undefined));
  }

  async delete(service: ServiceId, confirmed = false): Promise<boolean> {
    const meta = this.keys.metadata(service);
    if (!meta) {
      void vscode.window.showInformationMessage(t('No {0} key is stored.', title(service)));
      return false;
    }
    if (!confirmed) {
      const remove = t('Delete Key');
      const answer = await vscode.window.showWarningMessage(
        t(
          "Delete the {0} key {1} from VS Code's secret storage? The key itself stays valid at the service until you delete it there.",
          title(service),
          meta.masked,
        ),
        { modal: true },
        remove,
      );
      if (answer !== remove) return false;
    }
    try {
      await this.keys.deleteKey(service);
    } catch (error) {
      await this.storageFailed(error);
      return false;
    }
    this.monitor.reset(service);
    this.log.info(`Deleted the ${SERVICE_NAMES[service]} key ${meta.masked} from secret storage.`);
    return true;
  }

  async setExpiry(service?: ServiceId, date?: string): Promise<void> {
    const slot = service ?? (await this.pickService());
    if (!slot || !this.keys.metadata(slot)) return;
    const value =
      date ??
      (await vscode.window.showInputBox({
        title: t('Expiry date of the {0} key', title(slot)),
        prompt: t('The date the key stops working (YYYY-MM-DD). Keyward reminds you a week before.'),
        validateInput: (text) =>
          /^\d{4}-\d{2}-\d{2}$/.test(text) && !Number.isNaN(Date.parse(text))
            ? undefined
            : t('Use the form YYYY-MM-DD'),
      }));
    if (!value) return;
    await this.keys.updateMetadata(slot, { expiresAt: new Date(`${value}T00:00:00Z`).toISOString() });
  }

  async pickService(): Promise<ServiceId | undefined> {
    const pick = await vscode.window.showQuickPick(
      SERVICE_IDS.map((service) => ({ label: serviceLabel(service, this.configuration.value), service })),
      { title: t('Which service?') },
    );
    return pick?.service;
  }

  /**
   * Import Keys from the Environment (the walkthrough and the chat's empty
   * state): stores what the variables hold, asking nothing more; says so when
   * neither is set, rather than doing nothing.
   */
  async importFromEnvironment(env: NodeJS.ProcessEnv = process.env): Promise<ServiceId[]> {
    const variable = (service: ServiceId) => SERVICES[service].env.key;
    const found = SERVICE_IDS.filter((service) => env[variable(service)]);
    if (found.length === 0) {
      void vscode.window.showInformationMessage(
        t('None of {0} is set in the environment VS Code was started with.', SERVICE_IDS.map(variable).join(', ')),
      );
      return [];
    }
    const stored: ServiceId[] = [];
    for (const service of found) {
      await this.setKey(service, { key: env[variable(service)]!, label: t('{0} (imported)', variable(service)) });
      if (this.keys.metadata(service)) stored.push(service);
    }
    return stored;
  }
}
