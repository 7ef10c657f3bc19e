// The per-model settings an answer was sent with, as the words under it ("temperature 0.3 · max 400 tokens ·
// reasoning high"): pure, so it is tested without a DOM.
import type { ModelSettings } from '../shared/modelSettings.ts';
import type { UiStrings } from '../shared/uiStrings.ts';

export function settingsNote(settings: ModelSettings | undefined, s: UiStrings): string | null {
  if (!settings) return null;
  const parts: string[] = [];
  if (settings.temperature !== undefined)
    parts.push(`${s('setting.temperature', 'temperature')} ${settings.temperature}`);
  if (settings.maxOutputTokens !== undefined)
    parts.push(`${s('setting.maxOutput', 'max')} ${settings.maxOutputTokens} ${s('tokens', 'tokens')}`);
  if (settings.reasoningEffort !== undefined)
    parts.push(
      `${s('setting.reasoning', 'reasoning')} ${s(`effort.${settings.reasoningEffort}`, settings.reasoningEffort)}`,
    );
  return parts.length > 0 ? parts.join(' · ') : null;
}
