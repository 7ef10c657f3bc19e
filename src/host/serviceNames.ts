// The services' names as a person reads them, localised. The table in
// core/services.ts holds the English; vscode.l10n.t needs each string literal.
import * as vscode from 'vscode';
import type { KeywardConfig } from '../core/config.ts';
import type { ServiceId } from '../shared/errorKinds.ts';

const t = vscode.l10n.t;

/** In a sentence: "the routing service". */
const TITLES: Record<ServiceId, () => string> = {
  router: () => t('routing service'),
  direct: () => t('direct service'),
  compatible: () => t('OpenAI-compatible service'),
};

/** On a button or in a picker. */
const LABELS: Record<ServiceId, () => string> = {
  router: () => t('Routing service'),
  direct: () => t('Direct service'),
  compatible: () => t('OpenAI-compatible'),
};

/** On the chat's narrow service switch, with the label as its tooltip. */
const SHORT_LABELS: Record<ServiceId, () => string> = {
  router: () => t('Routing'),
  direct: () => t('Direct'),
  compatible: () => t('Compatible'),
};

/** The name the user gave the compatible service wins over the generic one. */
function given(service: ServiceId, config: KeywardConfig | undefined): string {
  return service === 'compatible' ? (config?.compatible.name ?? '') : '';
}

export function serviceTitle(service: ServiceId, config?: KeywardConfig): string {
  return given(service, config) || TITLES[service]();
}

export function serviceLabel(service: ServiceId, config?: KeywardConfig): string {
  return given(service, config) || LABELS[service]();
}

export function serviceShortLabel(service: ServiceId, config?: KeywardConfig): string {
  return given(service, config) || SHORT_LABELS[service]();
}
