// The services' names as a person reads them, localised. The English lives in
// each service's row (core/services/<id>Descriptor.ts), once.
import * as vscode from 'vscode';
import type { KeywardConfig } from '../core/config.ts';
import { SERVICES } from '../core/services/descriptors.ts';
import type { ServiceId } from '../shared/serviceIds.ts';

const t = vscode.l10n.t;

/** The name the user gave a service (compatible) wins over the generic one. */
function given(service: ServiceId, config: KeywardConfig | undefined): string {
  return config ? SERVICES[service].configured(config).givenName : '';
}

/** In a sentence: "the routing service". */
export function serviceTitle(service: ServiceId, config?: KeywardConfig): string {
  return given(service, config) || t(SERVICES[service].displayName);
}

/** On a button or in a picker. */
export function serviceLabel(service: ServiceId, config?: KeywardConfig): string {
  return given(service, config) || t(SERVICES[service].label);
}

/** On the chat's narrow service switch, with the label as its tooltip. */
export function serviceShortLabel(service: ServiceId, config?: KeywardConfig): string {
  return given(service, config) || t(SERVICES[service].shortLabel);
}
