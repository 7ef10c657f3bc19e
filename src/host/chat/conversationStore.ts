// What the panel keeps in workspace storage: the conversation, the chosen
// service and models, and where each attachment came from. Everything passes
// the one filter for disk (the memento handed in is a ScrubbedMemento).
import type * as vscode from 'vscode';
import { DEFAULT_SERVICE, type ServiceId, defaultModel, perService } from '../../shared/serviceIds.ts';
import type { ChatTurn } from '../../shared/protocol.ts';
import { showVersion } from '../../shared/answerVersions.ts';
import type { ChatConversations } from './chatConversations.ts';

const CHOICE_KEY = 'keyward.panel.choice';
const REFS_KEY = 'keyward.panel.attachmentRefs';
const MAX_REFS = 50;

/** Where an attachment's text came from: enough to read it again, nothing of the text itself. */
export interface AttachmentRef {
  id: string;
  uri: string;
  /** Start line, start character, end line, end character (0-based). */
  range: [number, number, number, number];
}

export interface Choice {
  service: ServiceId;
  selectedModel: Record<ServiceId, string>;
}

/** The chat's service and models as stored (the inline edit starts on them too). */
export function storedChoice(state: vscode.Memento): Choice {
  return state.get<Choice>(CHOICE_KEY) ?? { service: DEFAULT_SERVICE, selectedModel: perService(defaultModel) };
}

export class ConversationStore {
  private readonly state: vscode.Memento;
  private readonly conversations: ChatConversations;

  /** The turns live in the workspace's conversations; `state` keeps the choice and the references. */
  constructor(state: vscode.Memento, conversations: ChatConversations) {
    this.state = state;
    this.conversations = conversations;
  }

  /** The conversation shown now. */
  conversationId(): string {
    return this.conversations.activeId;
  }

  turns(conversationId = this.conversations.activeId): ChatTurn[] {
    return this.conversations.turns(conversationId);
  }

  async saveTurns(turns: ChatTurn[], conversationId = this.conversations.activeId): Promise<void> {
    await this.conversations.setTurns(conversationId, turns);
  }

  /** Shows another version of a regenerated answer, and stores it so; undefined when there is no such answer. */
  async showVersion(turnId: string, index: number, conversationId: string): Promise<ChatTurn | undefined> {
    const turns = this.turns(conversationId);
    const turn = turns.find((t) => t.id === turnId);
    if (!turn?.versions?.length) return undefined;
    const shown = showVersion(turn, index);
    await this.saveTurns(
      turns.map((t) => (t === turn ? shown : t)),
      conversationId,
    );
    return shown;
  }

  choice(): Choice {
    return storedChoice(this.state);
  }

  async selectService(service: ServiceId): Promise<void> {
    await this.state.update(CHOICE_KEY, { ...this.choice(), service });
  }

  async selectModel(service: ServiceId, model: string): Promise<void> {
    const choice = this.choice();
    await this.state.update(CHOICE_KEY, { ...choice, selectedModel: { ...choice.selectedModel, [service]: model } });
  }

  attachmentRefs(): AttachmentRef[] {
    return this.state.get<AttachmentRef[]>(REFS_KEY) ?? [];
  }

  async rememberAttachment(ref: AttachmentRef): Promise<void> {
    await this.state.update(REFS_KEY, [...this.attachmentRefs(), ref].slice(-MAX_REFS));
  }
}
