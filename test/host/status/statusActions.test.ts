// The status item's actions: the routing service offers Sign In, first while it has no key.
import { beforeEach, describe, expect, it } from 'vitest';
import { Configuration } from '../../../src/host/configuration.ts';
import { Log } from '../../../src/host/log.ts';
import { showStatusActions } from '../../../src/host/status/statusActions.ts';
import { fake } from '../vscodeShim.ts';

const SIGN_IN = '$(sign-in) Sign In to the Routing Service';
let configuration: Configuration;
beforeEach(() => {
  fake.state.quickPicks.length = 0;
  fake.state.picks.length = 0;
  configuration?.dispose();
  configuration = new Configuration(new Log());
});

const labels = () => fake.state.quickPicks.at(-1)!.map((item) => item.label);

describe('status actions: Sign In', () => {
  it('comes first for the routing service without a key, and runs the sign-in command', async () => {
    const ran: unknown[] = [];
    fake.state.commands.set('keyward.signInRouter', (...args) => ran.push(args));
    fake.state.picks.push(SIGN_IN);
    await showStatusActions('router', configuration, undefined, false);
    expect(labels()[0]).toBe(SIGN_IN);
    expect(fake.state.quickPicks.at(-1)![0]!.description).toBe('in the browser: no key to copy or paste');
    expect(ran).toEqual([[]]);
    fake.state.commands.delete('keyward.signInRouter');
  });

  it('follows the key actions once a key is stored, and is not offered for the direct service', async () => {
    await showStatusActions('router', configuration, undefined, true);
    expect(labels().indexOf(SIGN_IN)).toBe(labels().indexOf('$(calendar) Set Key Expiry Date') + 1);
    await showStatusActions('direct', configuration, undefined, false);
    expect(labels()).not.toContain(SIGN_IN);
  });
});
