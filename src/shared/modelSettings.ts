// Per-model settings a person sets in the chat's picker and Keyward sends on the wire, for the chat and for VS Code's
// language-model requests alike. Only what the model says it takes is sent (its list's supported parameters, or a
// reasoning model on the direct service). Plain numbers and words: stored in global state, never a secret.

export const REASONING_EFFORTS = ['minimal', 'low', 'medium', 'high'] as const;
export type ReasoningEffort = (typeof REASONING_EFFORTS)[number];

export interface ModelSettings {
  /** 0 to 2. */
  temperature?: number;
  /** A positive whole number of tokens. */
  maxOutputTokens?: number;
  reasoningEffort?: ReasoningEffort;
}

/** Which settings a model takes. */
export interface SettingSupport {
  temperature: boolean;
  maxOutputTokens: boolean;
  reasoningEffort: boolean;
}

/** A setting's value as it may be sent, or undefined for a value out of range (dropped, not clamped). */
export function cleanSettings(raw: unknown): ModelSettings {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return {};
  const r = raw as Record<string, unknown>;
  const out: ModelSettings = {};
  if (typeof r.temperature === 'number' && r.temperature >= 0 && r.temperature <= 2) out.temperature = r.temperature;
  if (typeof r.maxOutputTokens === 'number' && Number.isInteger(r.maxOutputTokens) && r.maxOutputTokens > 0)
    out.maxOutputTokens = r.maxOutputTokens;
  if (typeof r.reasoningEffort === 'string' && (REASONING_EFFORTS as readonly string[]).includes(r.reasoningEffort))
    out.reasoningEffort = r.reasoningEffort as ReasoningEffort;
  return out;
}

/** The settings a model takes, out of those set: what is sent, and what the answer's note names. */
export function applicableSettings(settings: ModelSettings, support: SettingSupport | undefined): ModelSettings {
  const clean = cleanSettings(settings);
  if (!support) return {};
  const out: ModelSettings = {};
  if (support.temperature && clean.temperature !== undefined) out.temperature = clean.temperature;
  if (support.maxOutputTokens && clean.maxOutputTokens !== undefined) out.maxOutputTokens = clean.maxOutputTokens;
  if (support.reasoningEffort && clean.reasoningEffort !== undefined) out.reasoningEffort = clean.reasoningEffort;
  return out;
}

/** A settings record's key: one model of one service. */
export function settingsKey(service: string, model: string): string {
  return `${service}/${model}`;
}
