// Keyward: Manage Keys…: every key of the account as the stored management or admin key sees it (name, the listed
// form, limit and what is left, usage, expiry, owner, last use, disabled, and which one Keyward uses), and what the
// service lets one do with each (disable, enable, set the limit, delete). The list comes back after each action, so
// a person sees what changed. Loaded with the other on-demand commands (dist/commands.js).
import * as vscode from 'vscode';
import type { ServiceId } from '../../shared/serviceIds.ts';
import { isServiceId } from '../../shared/serviceIds.ts';
import { SERVICE_NAMES, ServiceError } from '../../core/errors.ts';
import { relativeTime } from '../../core/chat/relativeTime.ts';
import type { AccountKeysApi, KeyAction, ListedKey } from '../../core/keys/accountKeys.ts';
import { openAccountKeys } from '../../core/keys/accountKeyApis.ts';
import { ACCOUNT_KEY_SERVICES } from '../../core/keys/keyStore.ts';
import type { AccountKeyParts } from './accountKeyCommands.ts';
import { serviceLabel } from '../serviceNames.ts';

const t = vscode.l10n.t;

interface KeyItem extends vscode.QuickPickItem {
  key: ListedKey;
}

interface ActionItem extends vscode.QuickPickItem {
  action: KeyAction;
}

const usd = (amount: number) => `$${amount.toFixed(2)}`;

/** The second line of a key's row: where it is, who owns it, its limit and usage, its expiry and last use. */
function detailOf(key: ListedKey, now: number): string {
  const when = (ms: number) => relativeTime(ms, now, vscode.env.language);
  const parts: string[] = [];
  if (key.place) parts.push(key.place);
  if (key.owner) parts.push(key.owner);
  if (key.limitUsd !== null)
    parts.push(
      key.limitReset
        ? t(
            'limit {0} ({1} left, resets {2})',
            usd(key.limitUsd),
            usd(key.remainingUsd ?? 0),
            resetName(key.limitReset),
          )
        : t('limit {0} ({1} left)', usd(key.limitUsd), usd(key.remainingUsd ?? 0)),
    );
  else if (key.actions.includes('set-limit')) parts.push(t('no limit'));
  if (key.usageTodayUsd !== null) parts.push(t('today {0}', usd(key.usageTodayUsd)));
  if (key.usageMonthUsd !== null) parts.push(t('this month {0}', usd(key.usageMonthUsd)));
  // An expiry is ahead of now: a day count (relativeTime speaks of the past).
  if (key.expiresMs !== null)
    parts.push(
      key.expiresMs <= now
        ? t('expired {0}', when(key.expiresMs))
        : t('expires in {0} days', String(Math.ceil((key.expiresMs - now) / 86_400_000))),
    );
  if (key.lastUsedMs !== null) parts.push(t('last used {0}', when(key.lastUsedMs)));
  else if (key.owner !== null) parts.push(t('never used'));
  return parts.join(' · ');
}

function rowOf(key: ListedKey, now: number): KeyItem {
  const marks = `${key.inUse ? '$(star-full) ' : ''}${key.disabled ? '$(circle-slash) ' : ''}`;
  const state = [key.inUse ? t('used by Keyward') : '', key.disabled ? t('disabled') : ''].filter(Boolean).join(', ');
  return {
    label: `${marks}${key.name || t('(no name)')}`,
    description: state ? `${key.shown} · ${state}` : key.shown,
    detail: detailOf(key, now),
    key,
  };
}

/** An action's row in the key's menu. */
function actionRow(action: KeyAction): ActionItem {
  switch (action) {
    case 'disable':
      return {
        label: t('$(circle-slash) Disable'),
        detail: t('Requests with it are refused at once; Enable brings it back.'),
        action,
      };
    case 'enable':
      return { label: t('$(pass) Enable'), detail: t('Requests with it work again.'), action };
    case 'set-limit':
      return {
        label: t('$(edit) Set the Credit Limit…'),
        detail: t('What it may spend before the service refuses it.'),
        action,
      };
    case 'delete':
      return { label: t('$(trash) Delete…'), detail: t('Gone for good: it cannot be brought back.'), action };
  }
}

/** "daily", "weekly", "monthly", as the service names a limit's reset. */
export function resetName(reset: string): string {
  if (reset === 'daily') return t('daily');
  if (reset === 'weekly') return t('weekly');
  if (reset === 'monthly') return t('monthly');
  return reset;
}

/** The service named, else the one holding a management or admin key (a picker when both do). */
async function serviceOf(given: unknown, parts: AccountKeyParts): Promise<ServiceId | undefined> {
  const held = ACCOUNT_KEY_SERVICES.filter((id) => parts.keys.accountMetadata(id));
  if (isServiceId(given) && held.includes(given)) return given;
  if (held.length === 1) return held[0];
  if (held.length === 0) {
    const add = t('Add a Management or Admin Key…');
    const answer = await vscode.window.showInformationMessage(
      t('Keyward holds no management or admin key. Add one to list, limit, disable and delete your keys from here.'),
      add,
    );
    if (answer === add)
      await vscode.commands.executeCommand('keyward.addAccountKey', isServiceId(given) ? given : undefined);
    return undefined;
  }
  const picked = await vscode.window.showQuickPick(
    held.map((id) => ({ label: serviceLabel(id, parts.configuration.value), id })),
    { placeHolder: t('Whose keys?') },
  );
  return picked?.id;
}

/** Runs `work`; says what failed in the service's words (already redacted) and answers false when it does. */
async function tried(service: ServiceId, what: string, work: () => Promise<void>): Promise<boolean> {
  try {
    await work();
    return true;
  } catch (error) {
    if (!(error instanceof ServiceError)) throw error;
    void vscode.window.showErrorMessage(
      t('{0} failed; the {1} said: {2}', what, SERVICE_NAMES[service], error.message),
    );
    return false;
  }
}

/** Asks the new limit in USD; undefined when the person cancels. */
async function askLimit(key: ListedKey): Promise<number | undefined> {
  const value = await vscode.window.showInputBox({
    title: t('Credit limit of {0}', key.name || key.shown),
    prompt: t('In US dollars. The key is refused once it has spent this much (in each period, where it resets).'),
    value: key.limitUsd === null ? '' : String(key.limitUsd),
    validateInput: (text) =>
      /^\d+(\.\d{1,2})?$/.test(text.trim()) && Number(text) > 0
        ? undefined
        : t('A positive amount, such as 10 or 2.50.'),
  });
  return value === undefined ? undefined : Number(value.trim());
}

/** Whether the person confirms deleting `key` for good (a stronger warning for the key Keyward uses). */
async function confirmDelete(service: ServiceId, key: ListedKey, named: string): Promise<boolean> {
  const remove = t('Delete');
  const warning = key.inUse
    ? t(
        'Delete {0} at the {1}? Keyward uses this key for prompts: they fail until a new key is stored. This cannot be undone.',
        named,
        SERVICE_NAMES[service],
      )
    : t('Delete {0} at the {1}? Whatever uses it stops working. This cannot be undone.', named, SERVICE_NAMES[service]);
  return (await vscode.window.showWarningMessage(warning, { modal: true }, remove)) === remove;
}

/** One action on one key, after a confirmation where it cannot be undone; says what it did. */
export async function keyAction(
  service: ServiceId,
  api: AccountKeysApi,
  key: ListedKey,
  action: KeyAction,
): Promise<void> {
  const named = `${key.name || t('(no name)')} (${key.shown})`;
  let done: string | undefined;
  if (action === 'delete') {
    if (!(await confirmDelete(service, key, named))) return;
    if (await tried(service, t('Deleting {0}', named), () => api.delete(key))) done = t('Deleted {0}.', named);
  } else if (action === 'set-limit' && api.setLimit) {
    const limit = await askLimit(key);
    if (limit === undefined) return;
    if (await tried(service, t('Setting the limit of {0}', named), () => api.setLimit!(key, limit)))
      done = t('The limit of {0} is now {1}.', named, usd(limit));
  } else if ((action === 'disable' || action === 'enable') && api.setDisabled) {
    const disabled = action === 'disable';
    const what = disabled ? t('Disabling {0}', named) : t('Enabling {0}', named);
    if (await tried(service, what, () => api.setDisabled!(key, disabled)))
      done = disabled ? t('Disabled {0}: requests with it are refused.', named) : t('Enabled {0}.', named);
  }
  if (done) void vscode.window.showInformationMessage(done);
}

/** The account's keys, or undefined when they could not be listed (said) or the person cancelled. */
async function listed(
  service: ServiceId,
  api: AccountKeysApi,
  inUse: string | undefined,
): Promise<ListedKey[] | undefined> {
  let keys: ListedKey[] | undefined;
  const ok = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Window, title: t('Listing the {0} keys…', SERVICE_NAMES[service]) },
    () => tried(service, t('Listing the keys'), async () => void (keys = await api.list(inUse))),
  );
  return ok ? keys : undefined;
}

/** Keyward: Manage Keys…: the list, then a key's actions, then the list again, until the person leaves it. */
export async function showKeyList(parts: AccountKeyParts, given?: unknown): Promise<void> {
  const service = await serviceOf(given, parts);
  if (!service) return;
  const accountKey = await parts.keys.getAccountKey(service);
  const api = accountKey && openAccountKeys(service, accountKey, parts.configuration.value);
  if (!api) return;
  try {
    const inUse = await parts.keys.getKey(service).catch(() => undefined);
    for (;;) {
      const keys = await listed(service, api, inUse);
      if (!keys) return;
      const now = Date.now();
      const picked = await vscode.window.showQuickPick(
        keys.map((key) => rowOf(key, now)),
        {
          title: t('{0}: {1} keys', serviceLabel(service, parts.configuration.value), String(keys.length)),
          placeHolder: t('Pick a key to disable, limit or delete it'),
          matchOnDescription: true,
          matchOnDetail: true,
        },
      );
      if (!picked) return;
      const action = await vscode.window.showQuickPick<ActionItem>(picked.key.actions.map(actionRow), {
        title: picked.label.replace(/^(\$\([^)]*\) )+/, ''),
        placeHolder: picked.key.shown,
      });
      if (action) await keyAction(service, api, picked.key, action.action);
    }
  } finally {
    await api.close();
  }
}
