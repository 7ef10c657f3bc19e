// The seeded sandbox: what `npm run emulator` and `npm start` serve, so a person
// can prompt both services at once without a real account.
import { DAY_MS } from './clock.ts';
import type { DirectState } from './directState.ts';
import type { RouterState } from './routerState.ts';

export interface Sandbox {
  routerFundedAccountId: string;
  routerFreeAccountId: string;
  directOrgId: string;
  keys: { routerFunded: string; routerFree: string; direct: string };
}

export function seedSandbox(router: RouterState, direct: DirectState, now: () => number): Sandbox {
  const funded = router.createAccount('Sandbox funded');
  router.purchase(funded, 20, 'card');
  const fundedKey = router.createKey({
    accountId: funded.id,
    name: 'sandbox funded',
    limit: 10,
    expiresAt: now() + 90 * DAY_MS,
  });
  const freeOnly = router.createAccount('Sandbox free-only');
  const freeKey = router.createKey({ accountId: freeOnly.id, name: 'sandbox free-only' });
  const org = direct.createOrg('Sandbox Org');
  direct.purchase(org, 10);
  const directKey = direct.createKey({ orgId: org.id, permissions: 'all', expiresAt: now() + 90 * DAY_MS });
  return {
    routerFundedAccountId: funded.id,
    routerFreeAccountId: freeOnly.id,
    directOrgId: org.id,
    keys: { routerFunded: fundedKey.value, routerFree: freeKey.value, direct: directKey.value },
  };
}
