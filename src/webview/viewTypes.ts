// The panel's state and the actions on it, as types: the reducer's parts (streamReducer.ts, composerReducer.ts,
// panelReducer.ts) and viewState.ts share them without importing each other in a circle.
import type { Attachment, ChatTurn, HostMessage, PanelState, SpendCapNotice } from '../shared/protocol.ts';

export interface Pending {
  requestId: string;
  assistantId: string;
  /** Epoch ms when the service's wait ends, while a retry is pending. */
  retryUntil: number | null;
  retryKind: string | null;
  /** Sent from the queue, not from the box: the box may hold something new, and a blocked send goes back there. */
  queued?: Queued;
}

/** A prompt written while an answer streams: it is sent when that answer ends well (issue 21 item 14). */
export interface Queued {
  text: string;
  attachments: Attachment[];
  model: string;
  /** Queued while a sent message was being edited: it replaces that message when it goes. */
  replaceFrom?: string;
}

/** A sent message being edited in the box: sending replaces it and every turn after it. */
export interface Editing {
  turnId: string;
  /** What the box held before, put back if the edit is cancelled. */
  draftBefore: string;
  attachmentsBefore: Attachment[];
}

export interface ViewState extends PanelState {
  draft: string;
  attachments: Attachment[];
  pending: Pending | null;
  modelFilter: string;
  /** Model ids most recently chosen per service, newest first: the picker lists them on top. */
  recentModels: Record<PanelState['service'], string[]>;
  /** The drafts of the conversations not shown, by conversation id: each conversation keeps its own. */
  drafts: Record<string, string>;
  queued: Queued | null;
  editing: Editing | null;
  /** The last Edit-and-resend replaced `count` turns before the user turn `userId`: an Undo is offered there. */
  replacedNotice: { userId: string; count: number } | null;
  /** The daily spend cap held the last send back: the card above the prompt box asks what to do. */
  spendCap: SpendCapNotice | null;
}

export type LocalAction =
  | { type: 'draft/set'; text: string }
  | { type: 'attachment/remove'; id: string }
  | { type: 'send/begin'; requestId: string; queued?: Queued }
  | { type: 'queue/add'; queued: Queued }
  | { type: 'queue/cancel' }
  /** The queued prompt goes back into the box to be edited (and is no longer queued). */
  | { type: 'queue/edit' }
  | { type: 'edit/begin'; turn: ChatTurn }
  | { type: 'edit/cancel' }
  | { type: 'model/filter'; text: string }
  | { type: 'service/local'; service: PanelState['service'] }
  | { type: 'model/local'; model: string }
  | { type: 'spendCap/dismiss' };

export type Action = HostMessage | LocalAction;
