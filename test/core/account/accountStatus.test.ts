// Status-bar text for the account states of both seeds.
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { normalizeConfig } from '../../../src/core/config.ts';
import {
  type DirectSnapshot,
  type RouterSnapshot,
  compatibleStatusView,
  directStatusView,
  routerStatusView,
} from '../../../src/core/account/accountStatus.ts';
import { ServiceError } from '../../../src/core/errors.ts';
import { routerKey } from '../../emulator/keyFactory.ts';
import type { KeyMetadata } from '../../../src/core/keys/keyStore.ts';
import type { RouterKeyInfo } from '../../../src/core/wire/chatCompletionsClient.ts';

const NOW = Date.parse('2026-11-21T20:00:00Z');
const meta: KeyMetadata = {
  service: 'router',
  label: 'laptop',
  masked: 'sk-or-v1-…3fa9',
  fingerprint: '0123456789abcdef',
  length: 73,
  addedAt: '2026-11-01T00:00:00Z',
  expiresAt: null,
  lastVerifiedAt: null,
};
const key = (extra: Partial<RouterKeyInfo> = {}): RouterKeyInfo => ({
  label: 'sk-or-v1-ab...fa9',
  limit: 20,
  limitRemaining: 12.34,
  limitReset: null,
  usage: 7.66,
  usageDaily: 1,
  isFreeTier: false,
  isManagementKey: false,
  expiresAt: '2027-01-01T00:00:00Z',
  freeModelDailyRequests: { used: 12, limit: 50, remaining: 38 },
  ...extra,
});
const snap = (extra: Partial<RouterSnapshot> = {}): RouterSnapshot => ({
  keyInfo: key(),
  credits: null,
  free: { used: 12, limit: 50, remaining: 38, resetsAt: Date.parse('2026-11-22T00:00:00Z'), lastMinute: 0 },
  lastError: null,
  refreshedAt: NOW - 30_000,
  stale: false,
  ...extra,
});

describe('router status', () => {
  it("shows the key's remaining limit and today's free count", () => {
    const view = routerStatusView(snap(), meta, NOW);
    expect(view).toMatchObject({ text: '$(key) $12.34 · free 12/50', severity: 'normal' });
    expect(view.accessibility).toBe('Routing service: $12.34 left, 12 of 50 free requests used today');
    expect(view.tooltip).toContain('resets at 00:00 UTC (in 4 h 0 min)');
    expect(view.tooltip).toContain(
      'Buying 10 credits raises it to 1,000 a day: $10.80 by card (fee 5.5%, at least $0.80) or $10.50 by crypto (fee 5%).',
    );
    expect(view.tooltip).toContain('fingerprint 01234567');
  });

  it('says "no limit" with a warning for a key without a credit limit, never a made-up $0.00', () => {
    const view = routerStatusView(snap({ keyInfo: key({ limit: null, limitRemaining: null }) }), meta, NOW);
    expect(view).toMatchObject({ text: '$(key) no limit · free 12/50', severity: 'warning' });
    expect(view.tooltip).toContain('no credit limit');
    expect(view.text).not.toContain('$0.00');
  });

  it('uses the account balance when /credits answers and the key has no limit', () => {
    expect(
      routerStatusView(
        snap({
          keyInfo: key({ limit: null, limitRemaining: null }),
          credits: { totalCredits: 20, totalUsage: 4.5, balance: 15.5 },
        }),
        meta,
        NOW,
      ).text,
    ).toBe('$(key) $15.50 · free 12/50');
  });

  it('warns for a key without an expiry', () => {
    const view = routerStatusView(snap({ keyInfo: key({ expiresAt: null }) }), meta, NOW);
    expect(view.severity).toBe('warning');
    expect(view.tooltip).toContain('Expires: **never**');
  });

  it("shows a funded account's 1,000-a-day allowance without the upgrade offer", () => {
    const view = routerStatusView(
      snap({ free: { used: 3, limit: 1000, remaining: 997, resetsAt: NOW + 3_600_000, lastMinute: 0 } }),
      meta,
      NOW,
    );
    expect(view.text).toBe('$(key) $12.34 · free 3/1000');
    expect(view.tooltip).toContain('At least 10 credits bought: 1,000 free requests a day.');
  });

  it('turns into a warning when the balance is negative: every call fails', () => {
    const view = routerStatusView(
      snap({
        keyInfo: key({ limit: null, limitRemaining: null }),
        credits: { totalCredits: 10, totalUsage: 11.25, balance: -1.25 },
      }),
      meta,
      NOW,
    );
    expect(view).toMatchObject({ text: '$(warning) \u2212$1.25 · calls fail', severity: 'warning' });
    expect(view.tooltip).toContain('every call fails, free models included');
    expect(view.tooltip).toContain('add at least $1.25 of credits');
    const fromError = routerStatusView(
      snap({
        lastError: {
          kind: 'insufficient_credits',
          status: 402,
          code: 'openrouter_negative_balance',
          message: 'Your account has a negative credit balance.',
          action: '',
          retryAfterSeconds: null,
        },
      }),
      meta,
      NOW,
    );
    expect(fromError.severity).toBe('warning');
    expect(fromError.text).toMatch(/calls fail/);
  });

  it("on a negative balance shows the balance, never the key's remaining limit, and what to do", () => {
    // The key has $12.34 of its own limit left; the account is $5 below zero and this key cannot read it.
    const negative = {
      kind: 'insufficient_credits' as const,
      status: 402,
      code: 'openrouter_negative_balance',
      message: 'Your account has a negative credit balance. Add credits to continue.',
      action: '',
      retryAfterSeconds: null,
    };
    const unknown = routerStatusView(snap({ lastError: negative }), meta, NOW);
    expect(unknown.text).toBe('$(warning) balance below zero · calls fail');
    expect(unknown.text).not.toContain('$12.34');
    expect(unknown.tooltip).toMatch(/To do: add credits on the credits page/);
    const known = routerStatusView(
      snap({ lastError: negative, credits: { totalCredits: 20, totalUsage: 25, balance: -5 } }),
      meta,
      NOW,
    );
    expect(known.text).toBe('$(warning) \u2212$5.00 · calls fail');
    expect(known.accessibility).toMatch(/below zero \(\u2212\$5\.00\)/);
    expect(known.tooltip).toContain('add at least $5.00 of credits on the credits page');
  });

  it('never shows more free requests used than the day allows', () => {
    const view = routerStatusView(
      snap({ free: { used: 1001, limit: 1000, remaining: 0, resetsAt: NOW + 3_600_000, lastMinute: 0 } }),
      meta,
      NOW,
    );
    expect(view.text).toBe('$(key) $12.34 · free 1000/1000');
    expect(view.tooltip).toContain('Free models today: 1000/1000 (the account is past its allowance)');
    expect(view.accessibility).toContain('1000 of 1000');
  });

  it('shows a stale figure with its age after a failed refresh', () => {
    expect(routerStatusView(snap({ stale: true, refreshedAt: NOW - 5 * 60_000 }), meta, NOW).text).toBe(
      '$(key) $12.34 · free 12/50 (5m ago)',
    );
  });

  it('says when the key is not accepted', () => {
    expect(
      routerStatusView(
        snap({
          keyInfo: null,
          lastError: {
            kind: 'auth',
            status: 401,
            code: '401',
            message: 'User not found.',
            action: '',
            retryAfterSeconds: null,
          },
        }),
        meta,
        NOW,
      ),
    ).toMatchObject({ text: '$(key) router: key invalid', severity: 'error' });
  });
});

describe('direct status', () => {
  const base: DirectSnapshot = {
    verified: 'ok',
    lastError: null,
    lastErrorAt: null,
    rateLimits: null,
    tier: 'Build',
    refreshedAt: NOW,
    stale: false,
    missingScopes: [],
    respondedAt: null,
  };
  const error = (
    kind: 'credit_exhausted' | 'spend_limit' | 'usage_limit' | 'rate_limit' | 'auth',
    retryAfterSeconds: number | null = null,
  ) => ({ kind, status: 429, code: kind, message: 'm', action: 'a', retryAfterSeconds });

  it.each([
    [base, '$(key) direct: ok', 'normal'],
    [{ ...base, lastError: error('credit_exhausted') }, '$(key) direct: credit exhausted', 'warning'],
    [{ ...base, lastError: error('spend_limit') }, '$(key) direct: spend limit reached', 'warning'],
    [{ ...base, lastError: error('usage_limit') }, '$(key) direct: usage limit reached', 'warning'],
    [
      { ...base, lastError: error('rate_limit', 20), lastErrorAt: NOW - 8000 },
      '$(key) direct: rate limited (12s)',
      'warning',
    ],
    [{ ...base, lastError: error('rate_limit', 5), lastErrorAt: NOW - 8000 }, '$(key) direct: ok', 'normal'],
    [{ ...base, verified: 'invalid' as const }, '$(key) direct: key invalid', 'error'],
    [{ ...base, verified: 'restricted' as const }, '$(key) direct: restricted', 'normal'],
    [
      { ...base, verified: 'restricted' as const, missingScopes: ['api.model.read'] },
      '$(key) direct: restricted',
      'normal',
    ],
    [
      { ...base, verified: 'restricted' as const, missingScopes: ['api.responses.write'] },
      '$(key) direct: restricted · needs api.responses.write',
      'warning',
    ],
  ])('%#: %s', (snapshot, text, severity) => {
    expect(directStatusView(snapshot, { ...meta, service: 'direct' }, NOW)).toMatchObject({ text, severity });
  });

  it('a key that may list models but not create responses names what it lacks and what to do', () => {
    const view = directStatusView(
      { ...base, verified: 'restricted', missingScopes: ['api.responses.write'] },
      { ...meta, service: 'direct' },
      NOW,
    );
    expect(view.tooltip).toContain('`api.responses.write`: may not create responses (send prompts)');
    expect(view.tooltip).toContain('give the key these permissions on the API keys page');
    expect(view.tooltip).toContain('Creating responses: refused (missing api.responses.write)');
    expect(view.accessibility).toBe('Direct service: restricted, needs api.responses.write');
  });

  it('says what a key check could and could not show', () => {
    expect(directStatusView(base, { ...meta, service: 'direct' }, NOW).tooltip).toContain(
      'Creating responses: not checked yet; only a prompt shows it',
    );
    expect(
      directStatusView({ ...base, respondedAt: NOW - 60_000 }, { ...meta, service: 'direct' }, NOW).tooltip,
    ).toContain('Creating responses: works (last prompt 1m ago)');
  });

  it('explains the usage tier and the next one', () => {
    const tooltip = directStatusView(base, { ...meta, service: 'direct' }, NOW).tooltip;
    expect(tooltip).toContain('Usage tier: Build (monthly usage limit $500.00)');
    expect(tooltip).toContain('Next tier: Launch once $100.00 of credit has been bought in all');
  });

  // Issue 21 item 12: the service does not say a key's tier, so with no setting the status must not claim "Free".
  it('says the usage tier is not set when nobody set it, from the settings to the tooltip', () => {
    const { config } = normalizeConfig(() => undefined);
    expect(config.direct.usageTier).toBeNull();
    const tooltip = directStatusView(
      { ...base, tier: config.direct.usageTier },
      { ...meta, service: 'direct' },
      NOW,
    ).tooltip;
    expect(tooltip).toContain('Usage tier: not set');
    expect(tooltip).not.toMatch(/Usage tier: Free|Next tier/);
    // The manifest's default would make an unset setting read as "Free" in the editor.
    const manifest = JSON.parse(readFileSync('package.json', 'utf8')) as {
      contributes: { configuration: { properties: Record<string, { default?: unknown }> } };
    };
    expect(manifest.contributes.configuration.properties['keyward.direct.usageTier']).not.toHaveProperty('default');
  });
});

// Issue 31: a stale figure says why. The error is a ServiceError's data, so what reaches the tooltip is redacted.
describe('a failed key check in the status views', () => {
  const refused = (kind: 'network' | 'certificate', message: string) =>
    new ServiceError({ kind, service: 'router', message }).toData();

  it('the router item: stale because the check failed; the tooltip names the kind and its advice', () => {
    const checkError = refused('certificate', 'Keyward did not accept the certificate of api.example (…).');
    const view = routerStatusView(snap({ stale: true, refreshedAt: NOW - 18_000, checkError }), meta, NOW);
    expect(view.text).toBe('$(key) $12.34 · free 12/50 (18s ago, check failed)');
    expect(view.tooltip).toContain('_Checked 18s ago; the figures are from then._');
    expect(view.tooltip).toContain(`**The last check failed: Certificate not accepted.** ${checkError.message}`);
    expect(view.tooltip).toContain(`To do: ${checkError.action}`);
    expect(view.accessibility).toContain('the last check failed: Certificate not accepted');
  });

  it('the router item whose first check failed: unchecked, and why', () => {
    const checkError = refused('network', 'Could not reach the routing service (ECONNREFUSED).');
    const view = routerStatusView(snap({ keyInfo: null, refreshedAt: null, checkError }), meta, NOW);
    expect(view.text).toBe('$(key) router: unchecked');
    expect(view.tooltip).toContain('**The last check failed: Network error.** Could not reach the routing service');
    expect(view.tooltip).not.toContain('Checking the key...');
  });

  it('a key in the message is masked before it reaches the tooltip', () => {
    const leaked = routerKey();
    const checkError = refused('network', `proxy said: bad key ${leaked}`);
    const view = routerStatusView(snap({ stale: true, refreshedAt: NOW - 60_000, checkError }), meta, NOW);
    expect(view.tooltip).toContain('The last check failed');
    expect(view.tooltip).not.toContain(leaked);
  });

  it('the compatible item: stale because the check failed, not just "(stale)"', () => {
    const checkError = refused('network', 'Could not reach the endpoint (ECONNREFUSED).');
    const view = compatibleStatusView(
      {
        verified: 'ok',
        canListModels: true,
        lastError: checkError,
        refreshedAt: NOW - 120_000,
        stale: true,
        checkError,
      },
      undefined,
      'Local LLM',
      NOW,
    );
    expect(view.text).toBe('$(server) Local LLM (2m ago, check failed)');
    expect(view.tooltip).toContain('**The last check failed: Network error.**');
  });
});
