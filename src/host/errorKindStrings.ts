// The panel's title for each error kind, localised. A table over every kind,
// so a new kind cannot reach the panel without a name a person can read.
import * as vscode from 'vscode';
import type { ErrorKind } from '../shared/errorKinds.ts';

const t = vscode.l10n.t;

export function errorKindStrings(): Record<`kind.${ErrorKind}`, string> {
  const labels = {
    auth: t('Key not accepted'),
    permission: t('Not permitted'),
    insufficient_credits: t('Not enough credits'),
    key_limit: t('Key limit reached'),
    in_flight_budget: t('Requests still running'),
    free_limit_minute: t('Free models: per-minute limit'),
    free_limit_day: t('Free models: daily limit'),
    rate_limit: t('Rate limited'),
    credit_exhausted: t('Credit exhausted'),
    spend_limit: t('Spend limit reached'),
    usage_limit: t('Usage limit reached'),
    bad_request: t('Request refused'),
    server: t('Service error'),
    network: t('Network error'),
    timeout: t('Timed out'),
    stream_interrupted: t('Answer broke off'),
    cancelled: t('Stopped'),
    insecure_url: t('Insecure base URL'),
    moderation: t('Prompt flagged by moderation'),
    region: t('Not offered in this region'),
    redirected: t('Redirect not followed'),
    response_too_large: t('Response too large'),
  } satisfies Record<ErrorKind, string>;
  return Object.fromEntries(Object.entries(labels).map(([kind, label]) => [`kind.${kind}`, label])) as Record<
    `kind.${ErrorKind}`,
    string
  >;
}
