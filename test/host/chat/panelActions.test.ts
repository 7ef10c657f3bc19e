// The panel's buttons: the empty chat's Sign in runs the sign-in of the service whose row names one, and only that.
import { describe, expect, it } from 'vitest';
import { Configuration } from '../../../src/host/configuration.ts';
import { runPanelAction } from '../../../src/host/chat/panelActions.ts';
import { Log } from '../../../src/host/log.ts';
import { offeredServices } from '../../../src/host/chat/chatServices.ts';
import { fake } from '../vscodeShim.ts';

describe('panel action: signIn', () => {
  it('runs Sign In to the Routing Service for the routing service, and nothing for a service without one', async () => {
    const ran: string[] = [];
    fake.state.commands.set('keyward.signInRouter', () => ran.push('signIn'));
    const configuration = new Configuration(new Log());
    await runPanelAction('signIn', 'router', configuration);
    await runPanelAction('signIn', 'direct', configuration);
    expect(ran).toEqual(['signIn']);
    expect(offeredServices(configuration.value).map((s) => [s.id, s.signIn === true])).toEqual([
      ['router', true],
      ['direct', false],
    ]);
    fake.state.commands.delete('keyward.signInRouter');
    configuration.dispose();
  });
});
