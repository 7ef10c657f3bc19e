// Which other extensions may use Keyward's language models. VS Code asks the person before an extension uses
// Copilot's models, but for a third-party provider it asks only through the proposed `chatProvider` API
// (`requiresAuthorization`), which a published extension cannot use: so Keyward asks itself, once per extension,
// in a modal (Allow / Don't Allow), and remembers the answer in global state (extension ids and yes or no, nothing
// secret). "Keyward: Manage Language Model Access" lists them with what each spent today and changes an answer.
// The caller is the `requestInitiator` VS Code passes the provider (the extension's id, or "core" for VS Code's own
// workbench); a host that does not pass it gets asked about "an extension VS Code did not name".
import * as vscode from 'vscode';
import type { SpendLedger } from '../../core/account/spendLedger.ts';
import { usd } from '../../core/account/spendLedger.ts';
import { type Dialogs, windowDialogs } from '../dialogs.ts';
import type { Log } from '../log.ts';

const t = vscode.l10n.t;

/** The global-state key of the answers. */
export const LM_ACCESS_STATE_KEY = 'keyward.lm.access';

/** The caller's key when VS Code names none. */
export const UNNAMED_CALLER = 'unnamed';

/** What the person answered: allow, refuse, or nothing (the dialog was closed or could not be shown). */
export type AccessAnswer = 'allow' | 'deny' | undefined;

export interface AccessState {
  get(key: string): unknown;
  update(key: string, value: unknown): PromiseLike<void>;
}

type Decisions = Record<string, { allowed: boolean; label: string }>;

/** The caller's id from the provider's options: an extension id, "core", or undefined when the host says nothing. */
export function requestInitiator(options: unknown): string | undefined {
  const value = (options as { requestInitiator?: unknown } | undefined)?.requestInitiator;
  return typeof value === 'string' && value !== '' ? value.toLowerCase() : undefined;
}

/** The extension's display name, or its id. */
export function callerLabel(caller: string): string {
  if (caller === UNNAMED_CALLER) return t('an extension VS Code did not name');
  const found = vscode.extensions.all.find((e) => e.id.toLowerCase() === caller);
  const name = (found?.packageJSON as { displayName?: unknown } | undefined)?.displayName;
  return typeof name === 'string' && name !== '' ? `${name} (${found!.id})` : caller;
}

async function askInModal(dialogs: Dialogs, label: string): Promise<AccessAnswer> {
  const allow = t('Allow');
  const deny = t("Don't Allow");
  const picked = await dialogs.ask(
    t('{0} wants to use Keyward’s language models.', label),
    t(
      'Its requests are sent with your stored keys and paid models cost money; what it spends counts toward the daily spend cap. You can change this in "Keyward: Manage Language Model Access".',
    ),
    allow,
    deny,
  );
  return picked === allow ? 'allow' : picked === deny ? 'deny' : undefined;
}

export class LanguageModelAccess {
  private readonly state: AccessState;
  private readonly ledger: SpendLedger | undefined;
  private readonly log: Log;
  /** Keyward's own id: its own requests are never asked about. */
  private readonly self: string;
  /** One question per extension at a time: requests sent together wait for the same answer. */
  private readonly asking = new Map<string, Promise<boolean>>();
  /** Where the question is asked, once per extension (dialogs.ts). */
  private readonly dialogs: Dialogs;

  constructor(state: AccessState, ledger: SpendLedger | undefined, log: Log, self: string, dialogs = windowDialogs) {
    this.state = state;
    this.ledger = ledger;
    this.log = log;
    this.self = self.toLowerCase();
    this.dialogs = dialogs;
  }

  decisions(): Decisions {
    const raw = this.state.get(LM_ACCESS_STATE_KEY);
    const out: Decisions = {};
    if (raw && typeof raw === 'object')
      for (const [id, d] of Object.entries(raw as Record<string, unknown>)) {
        const { allowed, label } = (d ?? {}) as { allowed?: unknown; label?: unknown };
        if (typeof allowed === 'boolean') out[id] = { allowed, label: typeof label === 'string' ? label : id };
      }
    return out;
  }

  /** Sets or forgets (undefined) an answer. */
  async decide(caller: string, allowed: boolean | undefined, label = callerLabel(caller)): Promise<void> {
    const next = this.decisions();
    if (allowed === undefined) delete next[caller];
    else next[caller] = { allowed, label };
    await this.state.update(LM_ACCESS_STATE_KEY, next);
  }

  /** Whether the caller may send: VS Code itself and Keyward may; another extension once the person allowed it. */
  admit(caller: string | undefined): Promise<boolean> {
    const id = caller ?? UNNAMED_CALLER;
    if (id === 'core' || id === this.self) return Promise.resolve(true);
    const known = this.decisions()[id];
    if (known) return Promise.resolve(known.allowed);
    const pending = this.asking.get(id) ?? this.askOnce(id);
    this.asking.set(id, pending);
    return pending;
  }

  private async askOnce(id: string): Promise<boolean> {
    const label = callerLabel(id);
    // Logged before the modal, so that the log shows how long the person took (or the dialog waited) to answer.
    this.log.info(`Language models: asking whether ${id} may use Keyward's models.`);
    try {
      const answer = await askInModal(this.dialogs, label).catch((error: unknown) => {
        this.log.warn(`Language models: could not ask whether ${id} may use Keyward's models (${String(error)}).`);
        return undefined;
      });
      this.log.info(
        `Language models: ${id} ${answer === 'allow' ? 'allowed' : answer === 'deny' ? 'refused' : 'not answered'}.`,
      );
      // A closed dialog is no answer: refused this time, asked again next time.
      if (answer !== undefined && id !== UNNAMED_CALLER) await this.decide(id, answer === 'allow', label);
      return answer === 'allow';
    } finally {
      this.asking.delete(id);
    }
  }

  /** What an extension's requests cost today. */
  spentToday(caller: string): number {
    return this.ledger?.today().byCaller?.[caller] ?? 0;
  }

  /** The management command: the extensions asked about, with their answer and today's spend; pick one to change it. */
  async manage(): Promise<void> {
    const decisions = this.decisions();
    const ids = Object.keys(decisions).sort();
    if (ids.length === 0) {
      await vscode.window.showInformationMessage(t('No extension has asked to use Keyward’s language models yet.'));
      return;
    }
    const picked = await vscode.window.showQuickPick(
      ids.map((id) => ({
        id,
        label: decisions[id]!.label,
        description: decisions[id]!.allowed ? t('allowed') : t('not allowed'),
        detail: t('Spent today: {0}', usd(this.spentToday(id))),
      })),
      { title: t('Keyward: Manage Language Model Access'), placeHolder: t('The extension whose access to change') },
    );
    if (!picked) return;
    const allow = { label: t('Allow'), allowed: true as boolean | undefined };
    const deny = { label: t("Don't Allow"), allowed: false as boolean | undefined };
    const forget = { label: t('Ask Again Next Time'), allowed: undefined as boolean | undefined };
    const choice = await vscode.window.showQuickPick([allow, deny, forget], {
      title: picked.label,
      placeHolder: t('May this extension use Keyward’s language models?'),
    });
    if (choice) await this.decide(picked.id, choice.allowed, picked.label);
  }
}
