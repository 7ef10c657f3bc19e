// Keyward's own tests drive the panel through this probe instead of fields on
// the panel: it answers the secret guard and Apply's "which file?", and keeps what was posted.
import type { HostMessage } from '../../shared/protocol.ts';
import type { GuardAnswer } from '../../core/guards/secretGuard.ts';
import type { ChatSessionPorts } from './chatSessionPorts.ts';
import { askToRedact } from './secretGuardPrompt.ts';
import type { ChooseFile } from './applyTarget.ts';

export class PanelProbe {
  /** What the secret guard answers instead of a modal; the modal when unset. */
  guardAnswer: GuardAnswer | undefined;
  /** What Apply's "which file?" answers instead of a Quick Pick; the Quick Pick when unset. */
  chooseFile: ChooseFile | undefined;
  /** Every message posted to the webviews, the latest ones. */
  readonly sent: HostMessage[] = [];

  readonly ports: Required<Pick<ChatSessionPorts, 'ask' | 'tap' | 'chooseFile'>> = {
    ask: (names, hits, unread) =>
      this.guardAnswer ? Promise.resolve(this.guardAnswer) : askToRedact(names, hits, unread),
    chooseFile: (candidates, placeHolder, quickPick) => (this.chooseFile ?? quickPick)(candidates, placeHolder),
    tap: (message) => {
      this.sent.push(message);
      if (this.sent.length > 2000) this.sent.splice(0, 1000);
    },
  };
}
