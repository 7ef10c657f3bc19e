// Organisations, projects, prepaid credit, usage tiers and keys of the direct
// model service, with the seed's rules.
import { randomUUID } from 'node:crypto';
import { YEAR_MS, utcMonth } from './clock.ts';
import { type CreditLot, drawFromLots, lotsTotal, money } from './money.ts';
import { directKey } from './keyFactory.ts';

export type Tier = 'Free' | 'Build' | 'Launch' | 'Grow';

/** The seed's tier table: cumulative purchases needed, monthly usage limit, and this emulator's rate limits. */
export const TIERS: { tier: Tier; purchased: number; monthlyLimit: number; rpm: number; tpm: number }[] = [
  { tier: 'Free', purchased: 0, monthlyLimit: 100, rpm: 3, tpm: 40_000 },
  { tier: 'Build', purchased: 5, monthlyLimit: 500, rpm: 500, tpm: 200_000 },
  { tier: 'Launch', purchased: 100, monthlyLimit: 5_000, rpm: 5_000, tpm: 2_000_000 },
  { tier: 'Grow', purchased: 500, monthlyLimit: 200_000, rpm: 10_000, tpm: 10_000_000 },
];

export const MIN_TOP_UP = 5;
export const DEFAULT_TOP_UP = 10;

export type Permission = 'all' | 'restricted' | 'read_only';

export interface Project {
  id: string;
  name: string;
  spendLimit: number | null;
  spend: Map<string, number>;
  createdAt: number;
  /** Archived projects keep their keys listed but refuse service accounts (spec: 400 "when project is archived"). */
  archivedAt: number | null;
}

/** The person who owns the organisation, and the owner of every user key made in the settings pages. */
export interface OrgUser {
  id: string;
  name: string;
  email: string;
  createdAt: number;
}

export interface ServiceAccount {
  id: string;
  name: string;
  projectId: string;
  /** `none` for an account made with create_service_account_only. */
  role: 'member' | 'owner' | 'none';
  createdAt: number;
}

/** One line of the spend ledger that /organization/costs sums: what, where, which key, when. */
export interface CostEntry {
  at: number;
  projectId: string;
  keyId: string | null;
  lineItem: string;
  amount: number;
}

export interface AutoReload {
  enabled: boolean;
  /** Reload when the balance falls below this. */
  threshold: number;
  amount: number;
  /** Most that auto-reload may buy in one month; null for no cap. */
  monthlyLimit: number | null;
}

export interface DirectOrg {
  id: string;
  name: string;
  projects: Map<string, Project>;
  freeLots: CreditLot[];
  paidLots: CreditLot[];
  /** Spending that no lot covered; the balance is then at or below zero. */
  debt: number;
  totalPurchased: number;
  spendLimit: number | null;
  monthlySpend: Map<string, number>;
  autoReload: AutoReload;
  autoReloaded: Map<string, number>;
  /** Request and token timestamps per project for the per-minute rate limits. */
  window: Map<string, { at: number; tokens: number }[]>;
  owner: OrgUser;
  serviceAccounts: Map<string, ServiceAccount>;
  costs: CostEntry[];
}

export type DirectKeyOwner = { type: 'user'; id: string } | { type: 'service_account'; id: string };

export interface DirectKey {
  id: string;
  value: string;
  /** Admin keys manage the organisation and call no model; the others belong to their project. */
  kind: 'proj' | 'svcacct' | 'admin';
  name: string;
  owner: DirectKeyOwner;
  lastUsedAt: number | null;
  orgId: string;
  projectId: string;
  permissions: Permission;
  scopes: Set<string>;
  expiresAt: number | null;
  revoked: boolean;
  disabled: boolean;
  createdAt: number;
}

/** Scopes of the model endpoints, and of the organisation's (named in the live "Missing scopes" answers). */
export type DirectScope =
  'api.model.read' | 'api.responses.write' | 'api.management.read' | 'api.management.write' | 'api.usage.read';

export interface StoredResponse {
  id: string;
  orgId: string;
  transcript: { role: string; content: string }[];
}

export class DirectState {
  readonly orgs = new Map<string, DirectOrg>();
  readonly keys = new Map<string, DirectKey>();
  readonly responses = new Map<string, StoredResponse>();
  private readonly byValue = new Map<string, DirectKey>();
  private readonly now: () => number;

  constructor(now: () => number) {
    this.now = now;
  }

  createOrg(name: string, autoReload?: Partial<AutoReload>): DirectOrg {
    const now = this.now();
    const org: DirectOrg = {
      id: `org-${randomUUID().slice(0, 12)}`,
      name,
      projects: new Map(),
      freeLots: [],
      paidLots: [],
      debt: 0,
      totalPurchased: 0,
      spendLimit: null,
      monthlySpend: new Map(),
      autoReload: { enabled: false, threshold: MIN_TOP_UP, amount: DEFAULT_TOP_UP, monthlyLimit: null, ...autoReload },
      autoReloaded: new Map(),
      window: new Map(),
      owner: {
        id: `user-${randomUUID().slice(0, 12)}`,
        name: 'Sandbox Owner',
        email: 'owner@example.invalid',
        createdAt: now,
      },
      serviceAccounts: new Map(),
      costs: [],
    };
    this.orgs.set(org.id, org);
    this.createProject(org, 'Default');
    return org;
  }

  org(id: string): DirectOrg {
    const org = this.orgs.get(id);
    if (!org) throw new Error(`no direct organisation ${id}`);
    return org;
  }

  createProject(org: DirectOrg, name: string): Project {
    const project: Project = {
      id: `proj_${randomUUID().slice(0, 12)}`,
      name,
      spendLimit: null,
      spend: new Map(),
      createdAt: this.now(),
      archivedAt: null,
    };
    org.projects.set(project.id, project);
    return project;
  }

  defaultProject(org: DirectOrg): Project {
    return [...org.projects.values()].find((p) => p.name === 'Default')!;
  }

  project(org: DirectOrg, id: string): Project {
    const project = org.projects.get(id);
    if (!project) throw new Error(`no project ${id} in ${org.id}`);
    return project;
  }

  purchase(org: DirectOrg, amount: number, source = 'purchase'): void {
    if (!(amount >= MIN_TOP_UP)) throw new Error(`the minimum purchase is ${MIN_TOP_UP} dollars`);
    const now = this.now();
    org.totalPurchased = money(org.totalPurchased + amount);
    const settled = Math.min(org.debt, amount);
    org.debt = money(org.debt - settled);
    org.paidLots.push({ amount, remaining: money(amount - settled), at: now, expiresAt: now + YEAR_MS, source });
  }

  grantFreeCredits(org: DirectOrg, amount: number, expiresInMs: number | null = null): void {
    const now = this.now();
    org.freeLots.push({
      amount,
      remaining: amount,
      at: now,
      expiresAt: expiresInMs === null ? null : now + expiresInMs,
      source: 'free',
    });
  }

  balance(org: DirectOrg): number {
    const now = this.now();
    return money(lotsTotal(org.freeLots, now) + lotsTotal(org.paidLots, now) - org.debt);
  }

  tier(org: DirectOrg): (typeof TIERS)[number] {
    let current = TIERS[0]!;
    for (const tier of TIERS) if (org.totalPurchased >= tier.purchased) current = tier;
    return current;
  }

  monthSpend(org: DirectOrg): number {
    return org.monthlySpend.get(utcMonth(this.now())) ?? 0;
  }

  projectMonthSpend(project: Project): number {
    return project.spend.get(utcMonth(this.now())) ?? 0;
  }

  /**
   * Charges a finished request: free credits first, then purchased, then auto-reload. `lines` split it into the line
   * items /organization/costs reports (one "usage" line when absent: spending from elsewhere).
   */
  spend(
    org: DirectOrg,
    project: Project,
    amount: number,
    detail: { keyId?: string; lines?: { item: string; amount: number }[] } = {},
  ): void {
    if (amount <= 0) return;
    const now = this.now();
    const month = utcMonth(now);
    for (const line of detail.lines ?? [{ item: 'usage', amount }])
      if (line.amount > 0)
        org.costs.push({
          at: now,
          projectId: project.id,
          keyId: detail.keyId ?? null,
          lineItem: line.item,
          amount: line.amount,
        });
    const left = drawFromLots(org.freeLots, amount, now);
    const uncovered = drawFromLots(org.paidLots, left, now);
    org.debt = money(org.debt + uncovered);
    org.monthlySpend.set(month, money((org.monthlySpend.get(month) ?? 0) + amount));
    project.spend.set(month, money((project.spend.get(month) ?? 0) + amount));
    const reload = org.autoReload;
    if (reload.enabled && this.balance(org) < reload.threshold) {
      const bought = org.autoReloaded.get(month) ?? 0;
      const amountToBuy = Math.max(MIN_TOP_UP, reload.amount);
      if (reload.monthlyLimit === null || bought + amountToBuy <= reload.monthlyLimit) {
        this.purchase(org, amountToBuy, 'auto-reload');
        org.autoReloaded.set(month, bought + amountToBuy);
      }
    }
  }

  createKey(options: {
    orgId: string;
    projectId?: string;
    permissions?: Permission;
    scopes?: string[];
    expiresAt?: number | null;
    kind?: 'proj' | 'svcacct' | 'admin';
    name?: string;
    /** A service account's key: its account (made for the key when absent). */
    serviceAccountId?: string;
  }): DirectKey {
    const org = this.org(options.orgId);
    const projectId = options.projectId ?? this.defaultProject(org).id;
    const project = this.project(org, projectId);
    const kind = options.kind ?? 'proj';
    const name = options.name ?? (kind === 'admin' ? 'Admin key' : 'Secret key');
    const owner: DirectKeyOwner =
      kind === 'svcacct'
        ? { type: 'service_account', id: this.serviceAccountFor(org, project, name, options.serviceAccountId) }
        : { type: 'user', id: org.owner.id };
    const key: DirectKey = {
      id: `key_${randomUUID().slice(0, 12)}`,
      value: directKey(kind),
      kind,
      name,
      owner,
      lastUsedAt: null,
      orgId: org.id,
      projectId,
      permissions: options.permissions ?? 'all',
      scopes: new Set(options.scopes ?? []),
      expiresAt: options.expiresAt ?? null,
      revoked: false,
      disabled: false,
      createdAt: this.now(),
    };
    this.keys.set(key.id, key);
    this.byValue.set(key.value, key);
    return key;
  }

  private serviceAccountFor(org: DirectOrg, project: Project, name: string, id: string | undefined): string {
    if (id === undefined) return this.createServiceAccount(org, project, name).id;
    if (org.serviceAccounts.get(id)?.projectId !== project.id)
      throw new Error(`no service account ${id} in ${project.id}`);
    return id;
  }

  createServiceAccount(org: DirectOrg, project: Project, name: string): ServiceAccount {
    const account: ServiceAccount = {
      id: `svc_acct_${randomUUID().slice(0, 12)}`,
      name,
      projectId: project.id,
      role: 'member',
      createdAt: this.now(),
    };
    org.serviceAccounts.set(account.id, account);
    return account;
  }

  key(id: string): DirectKey {
    const key = this.keys.get(id);
    if (!key) throw new Error(`no direct key ${id}`);
    return key;
  }

  authenticate(
    token: string | undefined,
  ): { key: DirectKey } | { error: 'missing' | 'unknown' | 'revoked' | 'disabled' | 'expired' } {
    if (!token) return { error: 'missing' };
    const key = this.byValue.get(token);
    if (!key) return { error: 'unknown' };
    if (key.revoked) return { error: 'revoked' };
    if (key.disabled) return { error: 'disabled' };
    if (key.expiresAt !== null && key.expiresAt <= this.now()) return { error: 'expired' };
    key.lastUsedAt = this.now();
    return { key };
  }

  /** Whether a key may use an endpoint; the scope it lacks otherwise. */
  missingScope(key: DirectKey, scope: DirectScope): string | undefined {
    if (key.permissions === 'all') return undefined;
    if (key.permissions === 'read_only') return scope.endsWith('.read') ? undefined : scope;
    return key.scopes.has(scope) ? undefined : scope;
  }

  /** The requests and tokens of the last minute for an org and project. */
  rateWindow(org: DirectOrg, projectId: string): { at: number; tokens: number }[] {
    const cutoff = this.now() - 60_000;
    const list = (org.window.get(projectId) ?? []).filter((entry) => entry.at > cutoff);
    org.window.set(projectId, list);
    return list;
  }

  snapshot(): unknown {
    return {
      orgs: [...this.orgs.values()].map((o) => ({
        id: o.id,
        name: o.name,
        balance: this.balance(o),
        totalPurchased: o.totalPurchased,
        tier: this.tier(o).tier,
        monthlyLimit: this.tier(o).monthlyLimit,
        monthSpend: this.monthSpend(o),
        spendLimit: o.spendLimit,
        autoReload: o.autoReload,
        projects: [...o.projects.values()].map((p) => ({
          id: p.id,
          name: p.name,
          spendLimit: p.spendLimit,
          monthSpend: this.projectMonthSpend(p),
        })),
      })),
      keys: [...this.keys.values()].map((k) => ({
        id: k.id,
        orgId: k.orgId,
        projectId: k.projectId,
        key: k.value,
        kind: k.kind,
        name: k.name,
        permissions: k.permissions,
        scopes: [...k.scopes],
        revoked: k.revoked,
        disabled: k.disabled,
        expiresAt: k.expiresAt === null ? null : new Date(k.expiresAt).toISOString(),
      })),
    };
  }
}
