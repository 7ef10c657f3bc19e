// Accounts, credits and keys of the routing service, with the seed's rules:
// prepaid dollars that may go negative, card and crypto fees, credits that expire
// after a year, per-key limits and expiries, and the free-model allowances.
import { randomUUID } from 'node:crypto';
import { DAY_MS, YEAR_MS, nextUtcMidnight, utcDay, utcMonth, utcWeekStart } from './clock.ts';
import { type CreditLot, drawFromLots, lotsTotal, money } from './money.ts';
import { newKeyHash, routerKey } from './keyFactory.ts';

export const FREE_PER_MINUTE = 20;
export const FREE_PER_DAY_LOW = 50;
export const FREE_PER_DAY_HIGH = 1_000;
/** The seed's 10-credit threshold starts at 9 to absorb rounding and fees. */
export const FREE_HIGH_THRESHOLD = 9;
export const CARD_FEE_RATE = 0.055;
export const CARD_FEE_MIN = 0.8;
export const CRYPTO_FEE_RATE = 0.05;

export type PurchaseMethod = 'card' | 'crypto';

export interface Purchase {
  credits: number;
  fee: number;
  charged: number;
  method: PurchaseMethod;
  at: number;
  expiresAt: number;
}

export interface RouterAccount {
  id: string;
  name: string;
  lots: CreditLot[];
  /** Spending that no live lot covered: the negative part of the balance. */
  debt: number;
  totalPurchased: number;
  totalUsage: number;
  purchases: Purchase[];
  freeDay: string;
  freeUsedToday: number;
  freeMinute: number[];
  /** Estimated cost of paid requests still running, by request id. */
  inFlight: Map<string, number>;
  /** The account's privacy settings page: only providers that do not collect data, whatever a request asks. */
  denyDataCollection: boolean;
}

export interface RouterKey {
  id: string;
  hash: string;
  value: string;
  accountId: string;
  name: string;
  limit: number | null;
  limitReset: 'daily' | 'weekly' | 'monthly' | null;
  expiresAt: number | null;
  deleted: boolean;
  /** Disabled through the key management API: refused until enabled again. */
  disabled: boolean;
  includeByokInLimit: boolean;
  management: boolean;
  createdAt: number;
  updatedAt: number | null;
  spends: { at: number; amount: number }[];
}

export function purchaseFee(amount: number, method: PurchaseMethod): number {
  return method === 'card' ? money(Math.max(CARD_FEE_MIN, amount * CARD_FEE_RATE)) : money(amount * CRYPTO_FEE_RATE);
}

export class RouterState {
  readonly accounts = new Map<string, RouterAccount>();
  readonly keys = new Map<string, RouterKey>();
  private readonly byValue = new Map<string, RouterKey>();
  private readonly now: () => number;

  constructor(now: () => number) {
    this.now = now;
  }

  createAccount(name: string): RouterAccount {
    const account: RouterAccount = {
      id: `acct_${randomUUID().slice(0, 8)}`,
      name,
      lots: [],
      debt: 0,
      totalPurchased: 0,
      totalUsage: 0,
      purchases: [],
      freeDay: utcDay(this.now()),
      freeUsedToday: 0,
      denyDataCollection: false,
      freeMinute: [],
      inFlight: new Map(),
    };
    this.accounts.set(account.id, account);
    return account;
  }

  account(id: string): RouterAccount {
    const account = this.accounts.get(id);
    if (!account) throw new Error(`no router account ${id}`);
    return account;
  }

  purchase(account: RouterAccount, credits: number, method: PurchaseMethod): Purchase {
    if (!(credits > 0)) throw new Error('amount must be a positive number of dollars');
    const now = this.now();
    const fee = purchaseFee(credits, method);
    const purchase: Purchase = {
      credits,
      fee,
      charged: money(credits + fee),
      method,
      at: now,
      expiresAt: now + YEAR_MS,
    };
    account.purchases.push(purchase);
    account.totalPurchased = money(account.totalPurchased + credits);
    // A purchase first settles any debt, so a negative balance returns toward zero.
    const settled = Math.min(account.debt, credits);
    account.debt = money(account.debt - settled);
    account.lots.push({
      amount: credits,
      remaining: money(credits - settled),
      at: now,
      expiresAt: purchase.expiresAt,
      source: method,
    });
    return purchase;
  }

  balance(account: RouterAccount): number {
    return money(lotsTotal(account.lots, this.now()) - account.debt);
  }

  /** Charges a finished request; the balance may go below zero. */
  spend(account: RouterAccount, key: RouterKey | undefined, amount: number): void {
    if (amount <= 0) return;
    const uncovered = drawFromLots(account.lots, amount, this.now());
    account.debt = money(account.debt + uncovered);
    account.totalUsage = money(account.totalUsage + amount);
    key?.spends.push({ at: this.now(), amount });
  }

  createKey(options: {
    accountId: string;
    name: string;
    limit?: number | null;
    limitReset?: RouterKey['limitReset'];
    expiresAt?: number | null;
    management?: boolean;
    includeByokInLimit?: boolean;
  }): RouterKey {
    this.account(options.accountId);
    const value = routerKey();
    const key: RouterKey = {
      id: `key_${randomUUID().slice(0, 8)}`,
      hash: newKeyHash(),
      value,
      accountId: options.accountId,
      name: options.name,
      limit: options.limit ?? null,
      limitReset: options.limitReset ?? null,
      expiresAt: options.expiresAt ?? null,
      deleted: false,
      disabled: false,
      includeByokInLimit: options.includeByokInLimit ?? false,
      management: options.management ?? false,
      createdAt: this.now(),
      updatedAt: null,
      spends: [],
    };
    this.keys.set(key.id, key);
    this.byValue.set(value, key);
    return key;
  }

  key(id: string): RouterKey {
    const key = this.keys.get(id);
    if (!key) throw new Error(`no router key ${id}`);
    return key;
  }

  /** The key a bearer token names, if it is usable: not deleted, not expired. */
  authenticate(
    token: string | undefined,
  ): { key: RouterKey } | { error: 'missing' | 'unknown' | 'deleted' | 'expired' | 'disabled' } {
    if (!token) return { error: 'missing' };
    const key = this.byValue.get(token);
    if (!key) return { error: 'unknown' };
    if (key.deleted) return { error: 'deleted' };
    if (key.disabled) return { error: 'disabled' };
    if (key.expiresAt !== null && key.expiresAt <= this.now()) return { error: 'expired' };
    return { key };
  }

  /** Spend of a key inside its current limit window (all time when the limit never resets). */
  keyUsage(key: RouterKey, since = 0): number {
    return money(key.spends.filter((s) => s.at >= since).reduce((sum, s) => sum + s.amount, 0));
  }

  keyLimitWindowStart(key: RouterKey): number {
    const now = this.now();
    const day = Date.parse(`${utcDay(now)}T00:00:00Z`);
    switch (key.limitReset) {
      case 'daily':
        return day;
      case 'weekly':
        return utcWeekStart(now);
      case 'monthly':
        return Date.parse(`${utcMonth(now)}-01T00:00:00Z`);
      default:
        return 0;
    }
  }

  keyLimitRemaining(key: RouterKey): number | null {
    if (key.limit === null) return null;
    return money(Math.max(0, key.limit - this.keyUsage(key, this.keyLimitWindowStart(key))));
  }

  freeDailyLimit(account: RouterAccount): number {
    return account.totalPurchased >= FREE_HIGH_THRESHOLD ? FREE_PER_DAY_HIGH : FREE_PER_DAY_LOW;
  }

  /** Today's free-model count, rolled over at UTC midnight. */
  freeUsed(account: RouterAccount): number {
    const today = utcDay(this.now());
    if (account.freeDay !== today) {
      account.freeDay = today;
      account.freeUsedToday = 0;
    }
    return account.freeUsedToday;
  }

  freeMinuteWindow(account: RouterAccount): number[] {
    const cutoff = this.now() - 60_000;
    account.freeMinute = account.freeMinute.filter((at) => at > cutoff);
    return account.freeMinute;
  }

  recordFreeRequest(account: RouterAccount): void {
    this.freeUsed(account);
    account.freeUsedToday += 1;
    account.freeMinute.push(this.now());
  }

  nextFreeDayReset(): number {
    return nextUtcMidnight(this.now());
  }

  inFlightTotal(account: RouterAccount): number {
    let total = 0;
    for (const amount of account.inFlight.values()) total += amount;
    return money(total);
  }

  snapshot(): unknown {
    const now = this.now();
    return {
      accounts: [...this.accounts.values()].map((a) => ({
        id: a.id,
        name: a.name,
        balance: this.balance(a),
        totalPurchased: a.totalPurchased,
        totalUsage: a.totalUsage,
        freeUsedToday: this.freeUsed(a),
        freeDailyLimit: this.freeDailyLimit(a),
        freeLastMinute: this.freeMinuteWindow(a).length,
        inFlight: this.inFlightTotal(a),
        purchases: a.purchases,
        creditsExpiringWithinDay: money(
          a.lots
            .filter((l) => l.expiresAt !== null && l.expiresAt > now && l.expiresAt - now < DAY_MS)
            .reduce((s, l) => s + l.remaining, 0),
        ),
      })),
      keys: [...this.keys.values()].map((k) => ({
        id: k.id,
        accountId: k.accountId,
        name: k.name,
        key: k.value,
        limit: k.limit,
        limitRemaining: this.keyLimitRemaining(k),
        usage: this.keyUsage(k),
        expiresAt: k.expiresAt === null ? null : new Date(k.expiresAt).toISOString(),
        deleted: k.deleted,
        disabled: k.disabled,
        hash: k.hash,
        management: k.management,
      })),
    };
  }
}
