// What the status bar says about each service, as plain data: text, markdown
// tooltip, severity. Pure functions of what the last checks and requests saw.
import type { ServiceErrorData } from '../../shared/errorKinds.ts';
import { errorKindRule } from '../../shared/errorKindRules.ts';
import { blocksPrompting } from '../../shared/scopes.ts';
import type { RateLimits } from '../wire/responsesClient.ts';
import { type Tier, allowanceUpgradeCost, formatDollars, tierInfo, CARD_FEE_MIN } from '../fees.ts';
import type { FreeStatus } from '../wire/freeGuard.ts';
import { type KeyMetadata, daysUntil } from '../keys/keyStore.ts';
import type { RouterCredits, RouterKeyInfo } from '../wire/chatCompletionsClient.ts';

export type Severity = 'normal' | 'warning' | 'error';

export interface StatusView {
  text: string;
  tooltip: string;
  severity: Severity;
  accessibility: string;
}

export interface RouterSnapshot {
  keyInfo: RouterKeyInfo | null;
  credits: RouterCredits | null;
  free: FreeStatus | null;
  lastError: ServiceErrorData | null;
  /** Epoch ms of the last refresh that worked. */
  refreshedAt: number | null;
  /** The last refresh failed (network, server): the figures are stale. */
  stale: boolean;
  /** Why the last key check failed; null (or absent) once one worked. */
  checkError?: ServiceErrorData | null;
}

export interface DirectSnapshot {
  verified: 'ok' | 'restricted' | 'invalid' | null;
  lastError: ServiceErrorData | null;
  lastErrorAt: number | null;
  rateLimits: RateLimits | null;
  /** Null when nobody set it (and the service does not say it). */
  tier: Tier | null;
  refreshedAt: number | null;
  stale: boolean;
  /** Why the last key check failed; null (or absent) once one worked. */
  checkError?: ServiceErrorData | null;
  /** Scopes a response named as missing ("Missing scopes: api.responses.write"), whatever its status. */
  missingScopes: string[];
  /** Epoch ms of the last prompt that worked: the only proof the key may create responses. */
  respondedAt: number | null;
}

export interface CompatibleSnapshot {
  /** 'ok': the endpoint answered; 'invalid': it refused the key (or wants one); null: not known. */
  verified: 'ok' | 'invalid' | null;
  /** Whether GET /models works; null until checked. */
  canListModels: boolean | null;
  lastError: ServiceErrorData | null;
  refreshedAt: number | null;
  stale: boolean;
  /** Why the last key check failed; null (or absent) once one worked. */
  checkError?: ServiceErrorData | null;
}

/** What each scope a Restricted key may lack lets it do. */
const SCOPE_MEANINGS: Record<string, string> = {
  'api.responses.write': 'create responses (send prompts)',
  'api.model.read': 'list models',
  'model.request': 'make requests to models',
};

export function scopeMeaning(scope: string): string {
  return SCOPE_MEANINGS[scope] ?? 'a permission the request needed';
}

/** Dollars with a real minus sign, for a status text that must read at a glance. */
function signedDollars(amount: number): string {
  return amount < 0 ? `\u2212${formatDollars(-amount)}` : formatDollars(amount);
}

export function ageText(since: number, now: number): string {
  const seconds = Math.max(0, Math.round((now - since) / 1000));
  if (seconds < 60) return `${seconds}s ago`;
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes}m ago`;
  return `${Math.round(minutes / 60)}h ago`;
}

/**
 * What a failed key check adds to a view: the item's text says its figures are from before the failure, and the
 * tooltip names the failure's kind and what to do (from a ServiceError, so redacted), so a figure never goes stale
 * quietly. Nothing when the check worked, or when the view already shows this error as the account's state.
 */
/** A failed check, as the item's text, the tooltip's lines and the spoken form add it. */
interface FailedCheck {
  text: string;
  lines: string[];
  spoken: string;
}

export function failedCheck(
  snapshot: { stale: boolean; refreshedAt: number | null; checkError?: ServiceErrorData | null },
  now: number,
  shown: ServiceErrorData | null = null,
): FailedCheck {
  const age = snapshot.stale && snapshot.refreshedAt !== null ? ageText(snapshot.refreshedAt, now) : null;
  const error = snapshot.checkError;
  if (!error || (shown && shown.kind === error.kind && shown.message === error.message))
    return { text: age ? ` (${age})` : '', lines: [], spoken: '' };
  const title = errorKindRule(error.kind).title;
  return {
    text: age ? ` (${age}, check failed)` : ' (check failed)',
    lines: ['', `$(warning) **The last check failed: ${title}.** ${error.message}`, '', `To do: ${error.action}`],
    spoken: `; the last check failed: ${title}`,
  };
}

function untilText(at: number, now: number): string {
  const minutes = Math.max(0, Math.round((at - now) / 60_000));
  return minutes < 60 ? `${minutes} min` : `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

/** The spendable credit: the key's remaining limit, else the account balance, else nothing made up. */
export function spendable(snapshot: RouterSnapshot): {
  amount: number | null;
  source: 'key limit' | 'balance' | 'none';
} {
  const info = snapshot.keyInfo;
  if (info && info.limit !== null && info.limitRemaining !== null) {
    const balance = snapshot.credits?.balance;
    return {
      amount: balance !== undefined && balance < info.limitRemaining ? balance : info.limitRemaining,
      source: 'key limit',
    };
  }
  if (snapshot.credits) return { amount: snapshot.credits.balance, source: 'balance' };
  return { amount: null, source: 'none' };
}

export function isNegativeBalance(snapshot: RouterSnapshot): boolean {
  if (snapshot.credits && snapshot.credits.balance < 0) return true;
  return snapshot.lastError?.kind === 'insufficient_credits' && /negative/i.test(snapshot.lastError.message);
}

/** The key's own line at the top of a tooltip. */
function keyLine(service: string, fallback: string, meta: KeyMetadata | undefined): string {
  return `**${service}** key "${meta?.label ?? fallback}" \`${meta?.masked ?? ''}\` (fingerprint ${meta?.fingerprint.slice(0, 8) ?? '?'})`;
}

/** The router item before a key check worked: refused, or not checked yet. */
function routerUnchecked(snapshot: RouterSnapshot, lines: string[], failed: FailedCheck): StatusView {
  if (snapshot.lastError?.kind === 'auth') {
    lines.push('$(error) The service does not accept this key. Set a new one.');
    return {
      text: '$(key) router: key invalid',
      tooltip: lines.join('\n'),
      severity: 'error',
      accessibility: 'Routing service: key invalid',
    };
  }
  const unchecked = snapshot.lastError ?? snapshot.checkError ?? null;
  if (!unchecked) lines.push('Checking the key...');
  else if (unchecked === snapshot.lastError) lines.push(`Could not check the key: ${unchecked.message}`);
  else lines.push(...failed.lines.slice(1));
  return {
    text: `$(key) router${unchecked ? ': unchecked' : ' …'}`,
    tooltip: lines.join('\n'),
    severity: unchecked ? 'warning' : 'normal',
    accessibility: `Routing service: not checked yet${failed.spoken}`,
  };
}

/** The router item's text, severity and spoken form: the balance when below zero, else what may be spent. */
function routerHeadline(
  snapshot: RouterSnapshot,
  info: RouterKeyInfo,
  balance: number | null,
): { text: string; severity: Severity; spoken: string } {
  const credit = spendable(snapshot);
  const free = snapshot.free;
  const freeUsed = usedFree(free);
  const freeText = free && free.limit !== null ? ` · free ${freeUsed}/${free.limit}` : '';
  const freeSpoken = free && free.limit !== null ? `, ${freeUsed} of ${free.limit} free requests used today` : '';
  if (isNegativeBalance(snapshot))
    // The figure that explains the failures is the balance, not the key's remaining limit.
    return {
      text: `$(warning) ${balance !== null ? signedDollars(balance) : 'balance below zero'} · calls fail`,
      severity: 'warning',
      spoken: `Routing service: the balance is below zero${balance !== null ? ` (${signedDollars(balance)})` : ''}; every call fails until credits are added`,
    };
  if (credit.amount === null)
    return {
      text: `$(key) no limit${freeText}`,
      severity: 'warning',
      spoken: `Routing service: key without a credit limit${freeSpoken}`,
    };
  return {
    text: `$(key) ${formatDollars(credit.amount)}${freeText}`,
    severity: info.limit === null || info.expiresAt === null ? 'warning' : 'normal',
    spoken: `Routing service: ${formatDollars(credit.amount)} left${freeSpoken}`,
  };
}

/** The account may be over its allowance (exempt accounts, the key check's lag): never "1001/1000". */
function usedFree(free: FreeStatus | null): number {
  return free && free.limit !== null ? Math.min(free.used, free.limit) : 0;
}

/** What a balance below zero means and what to do, at the top of the tooltip. */
function negativeBalanceLines(balance: number | null): string[] {
  return balance !== null
    ? [
        `$(warning) **The balance is ${signedDollars(balance)}: every call fails, free models included, until credits are added.**`,
        '',
        `To do: add at least ${formatDollars(-balance)} of credits on the credits page to get back to zero, more to prompt again (click this item: Add Credits).`,
        '',
      ]
    : [
        '$(warning) **The last request was refused because the account balance is below zero: every call fails, free models included, until credits are added.** (Only a management key can read the balance itself.)',
        '',
        "To do: add credits on the credits page (click this item: Add Credits). The figures below are the key's own limit, not the account balance.",
        '',
      ];
}

/** The key's figures: limit, usage, balance, expiry, free models today, and warnings for a key without limits. */
function routerFigures(snapshot: RouterSnapshot, info: RouterKeyInfo, meta: KeyMetadata | undefined, now: number) {
  const free = snapshot.free;
  const lines = [
    `- Credit limit: ${info.limit === null ? '**none** $(warning)' : `${formatDollars(info.limit)}${info.limitReset ? ` (resets ${info.limitReset})` : ''}, remaining ${formatDollars(info.limitRemaining ?? 0)}`}`,
    `- Usage: ${formatDollars(info.usage)} (today ${formatDollars(info.usageDaily)})`,
    `- Balance: ${snapshot.credits ? formatDollars(snapshot.credits.balance) : 'not readable with this key (management keys only)'}`,
  ];
  const days = daysUntil(info.expiresAt ?? meta?.expiresAt ?? null, new Date(now));
  lines.push(
    `- Expires: ${info.expiresAt ? `${info.expiresAt.slice(0, 10)}${days !== null ? ` (in ${days} days)` : ''}` : '**never** $(warning)'}`,
  );
  if (free && free.limit !== null) {
    lines.push(
      `- Free models today: ${usedFree(free)}/${free.limit}${free.used > free.limit ? ' (the account is past its allowance)' : ''}, resets at 00:00 UTC (in ${untilText(free.resetsAt, now)})`,
    );
    const upgrade = allowanceUpgradeCost(free.limit);
    lines.push(
      upgrade
        ? `- Fewer than 10 credits bought: ${free.limit} free requests a day. Buying ${upgrade.credits} credits raises it to 1,000 a day: ${formatDollars(upgrade.card)} by card (fee 5.5%, at least ${formatDollars(CARD_FEE_MIN)}) or ${formatDollars(upgrade.crypto)} by crypto (fee 5%).`
        : '- At least 10 credits bought: 1,000 free requests a day.',
    );
  }
  if (info.limit === null)
    lines.push(
      '',
      '$(warning) This key has no credit limit: a leaked key could spend the whole balance. Set a limit in the key settings.',
    );
  if (info.expiresAt === null)
    lines.push(
      '',
      '$(warning) This key has no expiry date. Keys can get one only when created: create a new key with an expiry and rotate.',
    );
  return lines;
}

export function routerStatusView(snapshot: RouterSnapshot, meta: KeyMetadata | undefined, now: number): StatusView {
  const info = snapshot.keyInfo;
  const lines: string[] = [keyLine('Routing service', 'Router key', meta), ''];
  const failed = failedCheck(snapshot, now, snapshot.lastError);
  if (snapshot.lastError?.kind === 'auth' || !info) return routerUnchecked(snapshot, lines, failed);
  // Only readable with a management key; otherwise the 402 said the balance is below zero, not by how much.
  const balance = snapshot.credits && snapshot.credits.balance < 0 ? snapshot.credits.balance : null;
  const { text, severity, spoken } = routerHeadline(snapshot, info, balance);
  if (isNegativeBalance(snapshot)) lines.push(...negativeBalanceLines(balance));
  lines.push(...routerFigures(snapshot, info, meta, now));
  if (snapshot.refreshedAt !== null)
    lines.push(
      '',
      `_Checked ${ageText(snapshot.refreshedAt, now)}${snapshot.stale ? '; the figures are from then' : ''}._`,
    );
  lines.push(...failed.lines);
  return { text: text + failed.text, tooltip: lines.join('\n'), severity, accessibility: spoken + failed.spoken };
}

/** The direct item's state and severity, and the tooltip's lines that explain it. */
function directState(snapshot: DirectSnapshot, now: number): { state: string; severity: Severity; lines: string[] } {
  const error = snapshot.lastError;
  const missing = snapshot.missingScopes;
  const blocking = missing.filter(blocksPrompting);
  const retryLeft =
    error?.kind === 'rate_limit' && error.retryAfterSeconds !== null && snapshot.lastErrorAt !== null
      ? Math.ceil(snapshot.lastErrorAt / 1000 + error.retryAfterSeconds - now / 1000)
      : 0;
  const named = error ? errorKindRule(error.kind).status : 'keep';
  if (error && typeof named === 'object')
    return {
      state: named.state,
      severity: named.severity,
      lines: [`$(warning) ${error.message}`, '', error.action, ''],
    };
  if (retryLeft > 0) return { state: `rate limited (${retryLeft}s)`, severity: 'warning', lines: [] };
  if (snapshot.verified === 'invalid') return { state: 'key invalid', severity: 'error', lines: [] };
  if (snapshot.verified === 'restricted' || missing.length > 0) {
    // What is missing, in the item itself: "restricted" alone does not say the key cannot prompt.
    const lines = [`$(${blocking.length > 0 ? 'warning' : 'info'}) **A Restricted key.** The service said it lacks:`];
    for (const scope of missing.length > 0 ? missing : ['api.model.read'])
      lines.push(`- \`${scope}\`: may not ${scopeMeaning(scope)}`);
    lines.push(
      '',
      blocking.length > 0
        ? 'To do: give the key these permissions on the API keys page (a Restricted key needs each scope), or use a key with All permissions.'
        : 'It may still prompt: type a model id in the panel.',
      '',
    );
    return {
      state: blocking.length > 0 ? `restricted · needs ${blocking.join(', ')}` : 'restricted',
      severity: blocking.length > 0 ? 'warning' : 'normal',
      lines,
    };
  }
  return { state: snapshot.verified === 'ok' ? 'ok' : '…', severity: 'normal', lines: [] };
}

/** What the key was seen to do, its usage tier and rate limits, and its expiry. */
function directFigures(snapshot: DirectSnapshot, meta: KeyMetadata | undefined, now: number): string[] {
  const lines: string[] = [];
  const missing = snapshot.missingScopes;
  const blocking = missing.filter(blocksPrompting);
  if (snapshot.verified !== null && snapshot.verified !== 'invalid') {
    // A key check lists models and spends nothing; it cannot show that the key may create responses.
    lines.push(
      `- Checked: ${missing.includes('api.model.read') ? 'the key is recognised; it may not list models' : 'the key is recognised and may list models'}`,
      snapshot.respondedAt !== null
        ? `- Creating responses: works (last prompt ${ageText(snapshot.respondedAt, now)})`
        : blocking.length > 0
          ? `- Creating responses: refused (missing ${blocking.join(', ')})`
          : '- Creating responses: not checked yet; only a prompt shows it (`api.responses.write`)',
    );
  }
  // The API does not say a key's tier; only the person's setting does. A default is not a fact about their account.
  const tier = snapshot.tier === null ? null : tierInfo(snapshot.tier);
  if (snapshot.tier === null || tier === null)
    lines.push('- Usage tier: not set (set `keyward.direct.usageTier` to see its limits)');
  else
    lines.push(
      `- Usage tier: ${snapshot.tier} (monthly usage limit ${formatDollars(tier.monthlyLimit)})`,
      tier.next
        ? `- Next tier: ${tier.next.tier} once ${formatDollars(tier.next.purchased)} of credit has been bought in all (limit ${formatDollars(tier.next.monthlyLimit)} a month).`
        : '- Highest tier.',
    );
  const limits = snapshot.rateLimits;
  if (limits)
    lines.push(
      `- Rate limits: ${limits.remainingRequests ?? '?'}/${limits.limitRequests ?? '?'} requests and ${limits.remainingTokens ?? '?'}/${limits.limitTokens ?? '?'} tokens left this minute`,
    );
  lines.push(
    meta?.expiresAt
      ? `- Expires: ${meta.expiresAt.slice(0, 10)}`
      : '- Expires: not recorded. Keys should carry an expiry date and be rotated.',
  );
  return lines;
}

export function directStatusView(snapshot: DirectSnapshot, meta: KeyMetadata | undefined, now: number): StatusView {
  const { state, severity, lines: stateLines } = directState(snapshot, now);
  const failed = failedCheck(snapshot, now, snapshot.lastError);
  const lines = [
    keyLine('Direct service', 'Direct key', meta),
    '',
    ...stateLines,
    ...directFigures(snapshot, meta, now),
  ];
  if (snapshot.refreshedAt !== null) lines.push('', `_Checked ${ageText(snapshot.refreshedAt, now)}._`);
  lines.push(...failed.lines);
  return {
    text: `$(key) direct: ${state}${failed.text}`,
    tooltip: lines.join('\n'),
    severity,
    accessibility: `Direct service: ${state.replace(' · ', ', ')}${failed.spoken}`,
  };
}

/**
 * The compatible endpoint: its name, whether it answers, and whether a key is
 * stored (a keyless local server is normal, not a warning).
 */
export function compatibleStatusView(
  snapshot: CompatibleSnapshot,
  meta: KeyMetadata | undefined,
  name: string,
  now: number,
): StatusView {
  const keyLine = meta ? `Key: ${meta.label} (${meta.masked})` : 'No key stored: requests are sent without one.';
  const error = snapshot.lastError;
  if (snapshot.verified === 'invalid' || error?.kind === 'auth')
    return {
      text: `$(error) ${name}: key refused`,
      tooltip: `**${name}**\n\nThe endpoint refused ${meta ? 'the key' : 'a request without a key'}: ${error?.message ?? ''}\n\n${keyLine}`,
      severity: 'error',
      accessibility: `${name}: key refused`,
    };
  if (error && snapshot.verified !== 'ok')
    return {
      text: `$(warning) ${name}: ${error.kind.replace(/_/g, ' ')}`,
      tooltip: `**${name}**\n\n${error.message}\n\n${error.action}\n\n${keyLine}`,
      severity: 'warning',
      accessibility: `${name}: ${error.kind.replace(/_/g, ' ')}`,
    };
  const age = snapshot.refreshedAt === null ? 'not checked yet' : `checked ${ageText(snapshot.refreshedAt, now)}`;
  const failed = failedCheck(snapshot, now);
  const stale = snapshot.stale ? (failed.lines.length ? failed.text : ' (stale)') : '';
  const models =
    snapshot.canListModels === false ? 'It lists no models: type the model id in the panel.' : 'Models are listed.';
  return {
    text: `$(server) ${name}${snapshot.verified === 'ok' ? '' : ' ?'}${stale}`,
    tooltip: `**${name}**\n\n${snapshot.verified === 'ok' ? 'Answering' : 'Not checked'} (${age}). ${models}\n\n${keyLine}${failed.lines.join('\n')}`,
    severity: 'normal',
    accessibility: `${name}: ${snapshot.verified === 'ok' ? 'answering' : 'not checked'}${stale}${failed.spoken}`,
  };
}
