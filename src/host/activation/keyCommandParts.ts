// The key and status commands: each service's, as its row in core/services/descriptors.ts names them, and the rest.
import type * as vscode from 'vscode';
import { SERVICES, SERVICE_IDS } from '../../core/services/descriptors.ts';
import type { ServiceId } from '../../shared/serviceIds.ts';
import { CommandId } from '../commandIds.ts';
import type { SetKeyArgs } from '../keys/keyCommands.ts';
import { command } from './command.ts';
import type { KeywardCore } from './keywardCore.ts';
import { onDemand } from './onDemand.ts';

export function keyCommandsOf(core: KeywardCore): vscode.Disposable[] {
  const { keyCommands, configuration, monitor } = core;
  return [
    command(CommandId.importKeys, async () => (await keyCommands()).importFromEnvironment()),
    command(CommandId.showLog, () => core.log.show()),
    ...SERVICE_IDS.flatMap((service) => {
      const ids = SERVICES[service].commands;
      return [
        command(ids.setKey, async (args?: SetKeyArgs) => (await keyCommands()).setKey(service, args)),
        command(ids.verifyKey, async () => (await keyCommands()).verify(service)),
        command(ids.rotateKey, async (key?: string) => (await keyCommands()).rotate(service, key)),
        command(ids.deleteKey, async (confirmed?: boolean) =>
          (await keyCommands()).delete(service, confirmed === true),
        ),
        command(ids.actions, async () =>
          (await onDemand()).showStatusActions(
            service,
            configuration,
            monitor,
            core.keys.metadata(service) !== undefined,
          ),
        ),
      ];
    }),
    // One Set Key… for every service: the one its caller names, else a picker of them all.
    command(CommandId.setKey, async (service?: unknown, args?: SetKeyArgs) => {
      const id = await (await onDemand()).serviceToSet(service, configuration.value);
      return id && (await keyCommands()).setKey(id, args);
    }),
    // Verify, Rotate and Delete Key… likewise, offering the services with a stored key.
    command(CommandId.verifyKey, async (service?: unknown) => {
      const id = await (await onDemand()).serviceWithKey(service, configuration.value, (s) => core.keys.metadata(s));
      return id && (await keyCommands()).verify(id);
    }),
    command(CommandId.rotateKey, async (service?: unknown, key?: string) => {
      const id = await (await onDemand()).serviceWithKey(service, configuration.value, (s) => core.keys.metadata(s));
      return id && (await keyCommands()).rotate(id, key);
    }),
    command(CommandId.deleteKey, async (service?: unknown, confirmed?: boolean) => {
      const id = await (await onDemand()).serviceWithKey(service, configuration.value, (s) => core.keys.metadata(s));
      return id && (await keyCommands()).delete(id, confirmed === true);
    }),
    command(CommandId.setKeyExpiry, async (service?: ServiceId, date?: string) =>
      (await keyCommands()).setExpiry(service, date),
    ),
    command(CommandId.addAccountKey, async (service?: unknown, key?: string) =>
      (await onDemand()).addAccountKey(core, service, key),
    ),
    command(CommandId.removeAccountKey, async (service?: unknown, confirmed?: boolean) =>
      (await onDemand()).removeAccountKey(core, service, confirmed === true),
    ),
    command(CommandId.manageKeys, async (service?: unknown) => (await onDemand()).showKeyList(core, service)),
    command(CommandId.createWorkspaceKey, async () => (await onDemand()).createWorkspaceKey(core)),
    command(CommandId.setUsageTier, async () => (await onDemand()).pickUsageTier()),
    command(CommandId.refreshStatus, () => core.statusBar.refresh()),
  ];
}
