// An inline edit's request, the way the chat sends one (host/chat/chatSend.ts): past the daily cap the person is
// asked first (here a notification, the editor has no card), then the secret guard reads the instruction, the lines
// and, for a follow-up, the earlier round, then the prompt goes through the one runner every service uses, and what
// it cost is added to the day's spend. A failure is told where the edit was asked, with the chat's advice and Retry.
import * as vscode from 'vscode';
import type { AccountMonitor } from '../../core/monitor/accountMonitor.ts';
import type { KeyStore } from '../../core/keys/keyStore.ts';
import {
  type GuardedOutcome,
  guardKeys,
  recordOnly,
  runGuardedPrompt,
  unreadReason,
} from '../../core/chat/guardedPrompt.ts';
import {
  type EditPlace,
  type EditRound,
  INLINE_EDIT_INSTRUCTIONS,
  inlineEditTurns,
} from '../../core/chat/inlineEditPrompt.ts';
import { runPrompt } from '../../core/chat/promptRunner.ts';
import { type GuardQuestion, guardPrompt, redactionMasks } from '../../core/guards/secretGuard.ts';
import { MaskRestorer } from '../../core/chat/maskRestorer.ts';
import { redactSecrets } from '../../core/redact.ts';
import type { ServiceError } from '../../core/errors.ts';
import type { CompletionResult } from '../../core/wire/textStream.ts';
import type { ResolvedPrompt } from '../../core/chat/contextRefs.ts';
import type { Attachment } from '../../shared/protocol.ts';
import type { ServiceId } from '../../shared/serviceIds.ts';
import { errorKindRule } from '../../shared/errorKindRules.ts';
import { SERVICES } from '../../core/services/descriptors.ts';
import type { Configuration } from '../configuration.ts';
import type { Log } from '../log.ts';
import { errorKindStrings } from '../errorKindStrings.ts';
import { serviceLabel } from '../serviceNames.ts';
import { panelStrings } from '../chat/panelStrings.ts';
import { runPanelAction } from '../chat/panelActions.ts';
import { askToRedact } from '../chat/secretGuardPrompt.ts';
import type { SpendGuard } from '../chat/spendGuard.ts';

const t = vscode.l10n.t;

export interface InlineEditDeps {
  monitor: AccountMonitor;
  keys: KeyStore;
  configuration: Configuration;
  log: Log;
  spend: SpendGuard | undefined;
  /** The secret guard's question; the modal unless a test answers. */
  ask?: GuardQuestion;
}

export interface ModelChoice {
  service: ServiceId;
  model: string;
}

export interface EditAsk {
  choice: ModelChoice;
  instruction: string;
  code: string;
  place: EditPlace;
  earlier?: EditRound;
  /** What `#` references in the instruction pointed at (#file, #selection…), resolved before the guard reads it. */
  context?: Attachment[];
}

/**
 * Where `#` references in an inline edit's instruction are resolved (host/chat/contextReaders.ts), against the
 * editor the edit was asked in: the instruction as it is sent, what the references add, and what could not go.
 */
export type ReferenceResolver = (instruction: string, editor: vscode.TextEditor) => Promise<ResolvedPrompt>;

/**
 * Past the daily cap, the person's word before a paid prompt: Send Anyway, the free model the chat's card offers, or
 * the setting. Undefined: not sent.
 */
export async function passCap(deps: InlineEditDeps, choice: ModelChoice): Promise<ModelChoice | undefined> {
  const capped = deps.spend?.check(choice.service, choice.model);
  if (!capped) return choice;
  const sendAnyway = t('Send Anyway');
  const useFree = capped.free ? t('Use {0}', capped.free.model) : undefined;
  const changeCap = t('Change Cap');
  const answer = await vscode.window.showWarningMessage(
    t(
      "Today's spend ({0}) has reached the daily cap ({1}). Send this edit to {2} anyway?",
      capped.spent,
      capped.cap,
      choice.model,
    ),
    ...[sendAnyway, ...(useFree ? [useFree] : []), changeCap],
  );
  if (answer === sendAnyway) return choice;
  if (answer === useFree && capped.free) return capped.free;
  if (answer === changeCap) await runPanelAction('changeSpendCap', choice.service, deps.configuration);
  return undefined;
}

/** The pieces the guard reads: the instruction is the prompt; the lines, and the earlier round, are attached. */
function pieces(ask: EditAsk): Attachment[] {
  const { place } = ask;
  const lines = ask.code.split('\n').length;
  const piece = (id: string, what: string, text: string): Attachment => ({
    id,
    fileName: what,
    languageId: place.languageId,
    startLine: place.startLine,
    endLine: place.startLine + lines - 1,
    text,
  });
  const file = redactSecrets(place.file);
  return [
    piece('code', file, ask.code),
    ...(ask.earlier
      ? [
          piece('instruction', t('{0} (the earlier instruction)', file), ask.earlier.instruction),
          piece('earlierCode', t('{0} (the code before the earlier edit)', file), ask.earlier.code),
          piece('answer', t('{0} (the earlier answer)', file), ask.earlier.answer),
        ]
      : []),
    ...(ask.context ?? []),
  ];
}

/**
 * The text the request carries, as "Show what is sent" shows it: the instructions, then each turn under its role.
 * Masked for display; the secret guard still asks about a key in it before anything is sent.
 */
export function sentText(ask: EditAsk): string {
  const turns = [
    { role: 'system', content: INLINE_EDIT_INSTRUCTIONS },
    ...inlineEditTurns(ask.instruction, ask.code, ask.place, ask.earlier, ask.context),
  ];
  return redactSecrets(turns.map((turn) => `## ${turn.role}\n\n${turn.content}`).join('\n\n'));
}

/**
 * A key the guard redacted in the lines (or the earlier round) comes back as the key where the answer returns its
 * placeholder: the answer is written over those lines. A key from a `#` reference is not put back: it was never in
 * these lines, and the answer must not copy it in.
 */
function restorerFor(ask: EditAsk, keys: Parameters<typeof redactionMasks>[1]): MaskRestorer {
  const texts = [ask.code, ...(ask.earlier ? [ask.earlier.code, ask.earlier.answer] : [])];
  return new MaskRestorer(texts.flatMap((text) => redactionMasks(text, keys)));
}

/**
 * The request through the guard, the cap's ledger and the runner; `onDelta` hears the answer as it streams, with the
 * lines' redacted keys put back. `left` counts placeholders that could not be (the model changed them).
 */
export async function sendInlineEdit(
  deps: InlineEditDeps,
  ask: EditAsk,
  callbacks: { signal: AbortSignal; onDelta: (text: string) => void },
): Promise<GuardedOutcome<CompletionResult> & { left?: number }> {
  const { service, model } = ask.choice;
  let restorer = new MaskRestorer([]);
  const outcome = await runGuardedPrompt({
    guard: async () => {
      const keys = await guardKeys(deps.keys);
      restorer = restorerFor(ask, keys);
      const unread = unreadReason(keys);
      if (unread !== undefined)
        deps.log.warn(`Secret guard: the stored keys could not be read (${unread}); asking before sending.`);
      return guardPrompt(ask.instruction, pieces(ask), keys, deps.ask ?? askToRedact, unread);
    },
    reserve: () => (deps.spend ? recordOnly((costUsd) => deps.spend!.record(service, costUsd)) : undefined),
    prompt: (guarded, onReported) => {
      const text = (id: string) => guarded.attachments.find((a) => a.id === id)?.text;
      const [code, instruction, earlierCode, answer] = ['code', 'instruction', 'earlierCode', 'answer'].map(text);
      const context = guarded.attachments.slice(ask.earlier ? 4 : 1);
      const earlier =
        ask.earlier && instruction !== undefined && earlierCode !== undefined && answer !== undefined
          ? { instruction, code: earlierCode, answer }
          : undefined;
      return runPrompt(
        deps.monitor,
        {
          service,
          model,
          turns: inlineEditTurns(guarded.prompt, code ?? '', ask.place, earlier, context),
          instructions: INLINE_EDIT_INSTRUCTIONS,
          denyDataCollection: deps.configuration.value.router.denyDataCollection,
        },
        { signal: callbacks.signal, onDelta: (text) => callbacks.onDelta(restorer.push(text)), onReported },
      ).finally(() => {
        // What was held back goes on, after an answer's end or a break alike: nothing that arrived is lost.
        const rest = restorer.end();
        if (rest) callbacks.onDelta(rest);
      });
    },
  });
  return restorer.left > 0 ? { ...outcome, left: restorer.left } : outcome;
}

/**
 * A failed edit, told as the chat's error card tells it: the kind's title, what the service said, what to do, and
 * the kind's buttons with Retry where trying again can help. Resolves when the person chose (or closed it).
 */
export async function tellFailure(error: ServiceError, deps: InlineEditDeps, retry: () => void): Promise<void> {
  const rule = errorKindRule(error.kind);
  const s = panelStrings();
  const title = errorKindStrings()[`kind.${error.kind}`];
  // Each sentence ends with its stop: a service's message often has none.
  const said = [error.message, error.action]
    .filter((text, i, all) => text && all.indexOf(text) === i)
    .map((text) => (/[.!?…]$/.test(text) ? text : `${text}.`))
    .join(' ');
  const canRetry = rule.buttons.some((b) => b.action === 'retry');
  const buttons = rule.buttons.flatMap((b) => {
    if (b.action === 'retry') return [];
    const label =
      b.label === 'creditsPage'
        ? SERVICES[error.service].capabilities.hasCredits
          ? (s.addCredits ?? b.text)
          : (s.openBilling ?? b.text)
        : (s[b.label] ?? b.text);
    return [{ label, action: b.action }];
  });
  const retryLabel = s.retry ?? t('Retry');
  const service = serviceLabel(error.service, deps.configuration.value);
  const message = t('Edit with Keyward ({0}): {1}. {2}', service, title, said);
  const chosen = await vscode.window.showErrorMessage(
    message,
    ...(canRetry ? [retryLabel] : []),
    ...buttons.map((b) => b.label),
  );
  if (chosen === undefined) return;
  if (chosen === retryLabel) return retry();
  const action = buttons.find((b) => b.label === chosen)?.action;
  if (action) await runPanelAction(action, error.service, deps.configuration);
}
