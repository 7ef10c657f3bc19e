// What the inline edit's input (inlineEditBox.ts) is given and gives back, the earlier prompts it offers on Up and
// Down, and the model picker behind its switch button. The prompts are kept in workspace state, which passes the
// one filter for disk (host/scrubbedState.ts): a key typed into a prompt is masked before it is stored, as the
// chat's history is.
import * as vscode from 'vscode';
import type { ModelCatalog } from '../../core/chat/modelCatalog.ts';
import type { KeyStore } from '../../core/keys/keyStore.ts';
import { SERVICES } from '../../core/services/descriptors.ts';
import { SERVICE_IDS, type ServiceId } from '../../shared/serviceIds.ts';
import type { Configuration } from '../configuration.ts';
import { serviceLabel } from '../serviceNames.ts';
import type { ModelChoice } from './inlineEditRequest.ts';

const t = vscode.l10n.t;
export const HISTORY_KEY = 'keyward.inlineEdit.history';
export const CHOICE_KEY = 'keyward.inlineEdit.choice';
const HISTORY_LENGTH = 50;

/** What the box was left with: a prompt to send, or the person asked for another model (the text kept). */
export type InputOutcome = { kind: 'send'; text: string } | { kind: 'switch'; text: string } | undefined;

export interface InputShape {
  title: string;
  prompt: string;
  placeholder: string;
  value: string;
  /** What the `#` references of a text add (their chips) and what cannot go, for the line under the box. */
  references?: (text: string) => Promise<{ adds: string; refused: string }>;
  /** "Show what is sent": the exact text the request would carry for this text, in a read-only document. */
  showSent?: (text: string) => Promise<void>;
}

export class PromptHistory {
  private readonly state: vscode.Memento;
  constructor(state: vscode.Memento) {
    this.state = state;
  }
  list(): string[] {
    return this.state.get<string[]>(HISTORY_KEY) ?? [];
  }
  /** The newest last, each prompt once. */
  async add(prompt: string): Promise<void> {
    const kept = this.list().filter((p) => p !== prompt);
    await this.state.update(HISTORY_KEY, [...kept, prompt].slice(-HISTORY_LENGTH));
  }
}

/** The service, then the model: picked from its list, or typed where the key or server cannot list them. */
export async function pickModel(
  current: ModelChoice,
  catalog: ModelCatalog,
  keys: KeyStore,
  configuration: Configuration,
): Promise<ModelChoice | undefined> {
  const usable = (id: ServiceId) => keys.metadata(id) !== undefined || SERVICES[id].capabilities.keyOptional;
  const services = SERVICE_IDS.map((id) => ({
    label: serviceLabel(id, configuration.value),
    description: id === current.service ? t('in use') : usable(id) ? '' : t('no key stored'),
    id,
  }));
  const service = await vscode.window.showQuickPick(services, { title: t('Edit with Keyward: service') });
  if (!service) return undefined;
  const list = await catalog.load(service.id);
  const models = list?.models ?? [];
  if (models.length > 0) {
    const picked = await vscode.window.showQuickPick(
      models.map((m) => ({ label: m.id, description: m.id === current.model ? t('in use') : '' })),
      { title: t('Edit with Keyward: model on {0}', service.label), matchOnDescription: true },
    );
    return picked ? { service: service.id, model: picked.label } : undefined;
  }
  const typed = await vscode.window.showInputBox({
    title: t('Edit with Keyward: model on {0}', service.label),
    prompt: t('This service does not list its models here; type a model id.'),
    value: service.id === current.service ? current.model : '',
  });
  return typed?.trim() ? { service: service.id, model: typed.trim() } : undefined;
}
