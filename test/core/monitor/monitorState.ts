// What tests read of an AccountMonitor, typed as each service's module keeps it: through its public API, so that
// the class carries no members for tests (test/lint/testHooks.test.ts).
import type { CompatibleSnapshot, DirectSnapshot, RouterSnapshot } from '../../../src/core/account/accountStatus.ts';
import type { AccountMonitor } from '../../../src/core/monitor/accountMonitor.ts';
import type { ResponsesClient } from '../../../src/core/wire/responsesClient.ts';

export const routerSnapshot = (monitor: AccountMonitor): RouterSnapshot => monitor.snapshot('router') as RouterSnapshot;
export const directSnapshot = (monitor: AccountMonitor): DirectSnapshot => monitor.snapshot('direct') as DirectSnapshot;
export const compatibleSnapshot = (monitor: AccountMonitor): CompatibleSnapshot =>
  monitor.snapshot('compatible') as CompatibleSnapshot;

/** The direct service's client, whose rate limits some tests read. */
export const directClient = async (monitor: AccountMonitor): Promise<ResponsesClient | undefined> =>
  (await monitor.client('direct')) as ResponsesClient | undefined;
