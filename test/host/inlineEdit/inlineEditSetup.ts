// The inline edit over the fake vscode with real HTTP to the emulator, for the tests of Edit with Keyward… and of its
// `#` references: a demo file open with the cursor inside old(), the box answered from a list (the `prompt` port)
// unless a test drives the real Quick Pick, the secret guard answered, and the daily cap through the real ledger.
import { AccountMonitor } from '../../../src/core/monitor/accountMonitor.ts';
import { KeyStore } from '../../../src/core/keys/keyStore.ts';
import { SpendLedger } from '../../../src/core/account/spendLedger.ts';
import { InlineEdits, type InlineEditPorts } from '../../../src/host/inlineEdit/inlineEdit.ts';
import type { InputShape } from '../../../src/host/inlineEdit/inlineEditInput.ts';
import { Configuration } from '../../../src/host/configuration.ts';
import { Log } from '../../../src/host/log.ts';
import { secretPort, statePort } from '../../../src/host/keys/secretPorts.ts';
import { SPEND_STATE_KEY, SpendGuard } from '../../../src/host/chat/spendGuard.ts';
import type { TestBed } from '../../emulator/adminClient.ts';
import { FakeMemento, FakeSecrets, Position, Selection } from '../fakeVscode.ts';
import { FakeTextDocument, FakeTextEditor, showEditor } from '../fakeTextEditor.ts';
import { fake } from '../vscodeShim.ts';

export const PAID = 'openai/gpt-4o-mini';
export const CODE = 'const a = 0;\n\nfunction old() {\n  // drop me\n  return 1; // add below\n}\n\nconst z = 9;';
export const EDITED =
  'const a = 0;\n\nfunction new() {\n  return 1; // add below\n  // added by keyward\n}\n\nconst z = 9;';

export interface Setup {
  edits: InlineEdits;
  editor: FakeTextEditor;
  shapes: InputShape[];
  prompts: string[];
  asked: string[];
  afterStop: ('keep' | 'undo' | undefined)[];
  keys: KeyStore;
  state: FakeMemento;
  dispose(): void;
}

export function setup(
  bed: TestBed,
  ports: Partial<InlineEditPorts> = {},
  settings: Record<string, unknown> = {},
): Setup {
  fake.state.messages.length = 0;
  fake.state.answers.length = 0;
  for (const name of Object.keys(fake.state.settings)) delete fake.state.settings[name];
  Object.assign(fake.state.settings, {
    'keyward.router.baseUrl': bed.emulator.routerBaseUrl,
    'keyward.direct.baseUrl': bed.emulator.directBaseUrl,
    'keyward.compatible.baseUrl': bed.emulator.compatibleBaseUrls.open,
    'keyward.status.refreshMinutes': 0,
    ...settings,
  });
  const log = new Log();
  const configuration = new Configuration(log);
  const keys = new KeyStore(secretPort(new FakeSecrets() as never), statePort(new FakeMemento() as never));
  const monitor = new AccountMonitor({ keys, config: () => configuration.value, tier: () => 'Build' as never });
  const state = new FakeMemento();
  const ledger = new SpendLedger({
    get: () => state.get(SPEND_STATE_KEY),
    set: (day) => state.update(SPEND_STATE_KEY, day),
  });
  const s = {
    shapes: [] as InputShape[],
    prompts: [] as string[],
    asked: [] as string[],
    afterStop: [] as ('keep' | 'undo' | undefined)[],
  };
  const edits = new InlineEdits({
    monitor,
    keys,
    configuration,
    log,
    spend: new SpendGuard(ledger, configuration, keys, log),
    state: state as never,
    chatChoice: () => ({ service: 'router', model: PAID }),
    prompt: async (shape) => {
      s.shapes.push(shape);
      const text = s.prompts.shift();
      return text === undefined ? undefined : { kind: 'send', text };
    },
    afterStop: async () => s.afterStop.shift(),
    ask: async (names) => {
      s.asked.push(names);
      return 'cancel';
    },
    ...ports,
  });
  const editor = new FakeTextEditor(new FakeTextDocument('/w/demo.js', CODE));
  // The cursor inside old(): no selection, so the paragraph around it (the function) is the region.
  editor.selection = new Selection(new Position(3, 2), new Position(3, 2));
  showEditor(editor);
  return {
    ...s,
    edits,
    editor,
    keys,
    state,
    dispose: () => {
      edits.dispose();
      monitor.dispose();
      configuration.dispose();
      log.dispose();
    },
  };
}
