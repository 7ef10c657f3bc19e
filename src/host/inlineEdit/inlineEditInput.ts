// The inline edit's input: a Quick Input box titled with the model and service, a button that switches them, and
// the earlier prompts on Up and Down (keyward.inlineEditHistoryPrevious/Next, bound while the box is shown). The
// prompts are kept in workspace state, which passes the one filter for disk (host/scrubbedState.ts): a key typed
// into a prompt is masked before it is stored, as the chat's history is.
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
const INPUT_CONTEXT = 'keyward.inlineEditInput';
const HISTORY_LENGTH = 50;

/** What the box was left with: a prompt to send, or the person asked for another model (the text kept). */
export type InputOutcome = { kind: 'send'; text: string } | { kind: 'switch'; text: string } | undefined;

export interface InputShape {
  title: string;
  prompt: string;
  placeholder: string;
  value: string;
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

export class EditInput {
  private box: vscode.InputBox | undefined;
  /** Where Up and Down are in the history: its length means the text being typed. */
  private at = 0;
  private draft = '';
  private shown: string[] = [];

  ask(shape: InputShape, history: readonly string[]): Promise<InputOutcome> {
    const box = vscode.window.createInputBox();
    this.box = box;
    this.shown = [...history];
    this.at = this.shown.length;
    box.title = shape.title;
    box.prompt = shape.prompt;
    box.placeholder = shape.placeholder;
    box.value = shape.value;
    box.ignoreFocusOut = true;
    const switchButton: vscode.QuickInputButton = {
      iconPath: new vscode.ThemeIcon('arrow-swap'),
      tooltip: t('Switch the model or service'),
    };
    box.buttons = [switchButton];
    void vscode.commands.executeCommand('setContext', INPUT_CONTEXT, true);
    return new Promise<InputOutcome>((resolve) => {
      let outcome: InputOutcome;
      const parts = [
        box.onDidAccept(() => {
          if (box.value.trim() === '') return;
          outcome = { kind: 'send', text: box.value.trim() };
          box.hide();
        }),
        box.onDidTriggerButton(() => {
          outcome = { kind: 'switch', text: box.value };
          box.hide();
        }),
        box.onDidHide(() => {
          parts.forEach((p) => p.dispose());
          box.dispose();
          if (this.box === box) this.box = undefined;
          void vscode.commands.executeCommand('setContext', INPUT_CONTEXT, false);
          resolve(outcome);
        }),
      ];
      box.show();
    });
  }

  /** Up: the prompt before the one shown. */
  previous(): void {
    this.move(-1);
  }

  /** Down: the next prompt, and past the newest the text that was being typed. */
  next(): void {
    this.move(1);
  }

  private move(step: number): void {
    const box = this.box;
    if (!box) return;
    if (this.at === this.shown.length) this.draft = box.value;
    this.at = Math.min(this.shown.length, Math.max(0, this.at + step));
    box.value = this.at === this.shown.length ? this.draft : this.shown[this.at]!;
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
