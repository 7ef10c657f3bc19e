// The chat's settings button for the chosen model: temperature, max output tokens and reasoning effort, offered only
// where the model takes them, asked with VS Code's own quick pick and input box (themed and accessible as the rest of
// the editor), and stored per model (host/chat/modelSettingsStore.ts).
import * as vscode from 'vscode';
import {
  type ModelSettings,
  REASONING_EFFORTS,
  type ReasoningEffort,
  type SettingSupport,
} from '../../shared/modelSettings.ts';
import type { ServiceId } from '../../shared/serviceIds.ts';
import type { ModelSettingsStore } from './modelSettingsStore.ts';

const t = vscode.l10n.t;

type Field = keyof ModelSettings;

export async function editModelSettings(
  store: ModelSettingsStore,
  service: ServiceId,
  model: string,
  support: SettingSupport | undefined,
): Promise<void> {
  const current = store.get(service, model);
  const unset = t('model default');
  const fields: { field: Field; label: string; description: string }[] = [];
  if (support?.temperature)
    fields.push({ field: 'temperature', label: t('Temperature'), description: String(current.temperature ?? unset) });
  if (support?.maxOutputTokens)
    fields.push({
      field: 'maxOutputTokens',
      label: t('Max output tokens'),
      description: String(current.maxOutputTokens ?? unset),
    });
  if (support?.reasoningEffort)
    fields.push({
      field: 'reasoningEffort',
      label: t('Reasoning effort'),
      description: current.reasoningEffort ?? unset,
    });
  if (fields.length === 0) {
    void vscode.window.showInformationMessage(
      t('The model list does not say which settings {0} takes, so Keyward sends none.', model),
    );
    return;
  }
  const reset = { field: undefined, label: t('Reset to the model defaults'), description: '' };
  const picked = await vscode.window.showQuickPick([...fields, reset], {
    title: t('Settings for {0}', model),
    placeHolder: t('Only the settings this model takes are offered'),
  });
  if (!picked) return;
  if (picked.field === undefined) return store.set(service, model, {});
  const value = await ask(picked.field, current);
  if (value === undefined) return;
  const next: ModelSettings = { ...current };
  if (value === null) delete next[picked.field];
  else Object.assign(next, { [picked.field]: value });
  await store.set(service, model, next);
}

/** The new value, null to clear it, undefined when the person cancelled. */
async function ask(field: Field, current: ModelSettings): Promise<number | ReasoningEffort | null | undefined> {
  if (field === 'reasoningEffort') {
    const clear = t('model default');
    const picked = await vscode.window.showQuickPick([clear, ...REASONING_EFFORTS], {
      title: t('Reasoning effort'),
    });
    return picked === undefined ? undefined : picked === clear ? null : (picked as ReasoningEffort);
  }
  const integer = field === 'maxOutputTokens';
  const text = await vscode.window.showInputBox({
    title: integer ? t('Max output tokens') : t('Temperature'),
    prompt: integer
      ? t('A whole number of tokens; empty for the model default')
      : t('0 to 2; empty for the model default'),
    value: current[field] === undefined ? '' : String(current[field]),
    validateInput: (input) => {
      if (input.trim() === '') return undefined;
      const n = Number(input);
      if (integer) return Number.isInteger(n) && n > 0 ? undefined : t('A whole number above 0');
      return Number.isFinite(n) && n >= 0 && n <= 2 ? undefined : t('A number from 0 to 2');
    },
  });
  if (text === undefined) return undefined;
  return text.trim() === '' ? null : Number(text);
}
