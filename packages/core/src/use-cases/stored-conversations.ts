import type { Principal } from '../auth';
import type { ConversationKind, ConversationStore, StoredConversation, StoredTurn } from '../ports/conversation-store.port';
import type { TextResult } from '../text';

/** A finished turn to keep: what it sent, what it answered, and its wire format's rendering. */
export interface KeptTurn {
  kind: ConversationKind;
  id: string;
  model: string;
  /** the turn it continues, of the same kind */
  previousId: string | null;
  /** defaults to now */
  createdAt?: Date;
  /** the history this turn sent */
  sent: StoredConversation;
  result: TextResult;
  /** the wire format's rendering, replayed by reads (opaque here) */
  document: Record<string, unknown>;
}

/** The history a follow-up continues: what was sent, then this turn's output (when there is any). */
export function conversationAfter(sent: StoredConversation, result: TextResult): StoredConversation {
  if (!result.content.length) return sent;
  return { ...sent, messages: [...sent.messages, { role: 'assistant', content: result.content }] };
}

/**
 * The conversations kept for a follow-up: Responses' stored responses (`previous_response_id`) and Anthropic's
 * message threads (`thread.previous_message_id`), one store with a kind per turn. Every read and delete is scoped
 * to the caller's account and to one kind, so another account's turn, or a thread id given as a response id,
 * behaves as an unknown one.
 */
export class StoredConversations {
  constructor(
    private readonly store: ConversationStore,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** The caller's own turn of this kind; null for an unknown id, another account's or another kind's. */
  find(principal: Principal, kind: ConversationKind, id: string): Promise<StoredTurn | null> {
    return this.store.find(principal.accountId, kind, id);
  }

  /** Keeps a finished turn under its id, chained to the one it continues, with the history a follow-up sends. */
  async keep(principal: Principal, turn: KeptTurn): Promise<void> {
    await this.store.save({
      id: turn.id,
      kind: turn.kind,
      accountId: principal.accountId,
      model: turn.model,
      previousId: turn.previousId,
      createdAt: turn.createdAt ?? this.now(),
      document: turn.document,
      conversation: conversationAfter(turn.sent, turn.result),
    });
  }

  /** True when the caller's turn of this kind was deleted. */
  delete(principal: Principal, kind: ConversationKind, id: string): Promise<boolean> {
    return this.store.delete(principal.accountId, kind, id);
  }

  /** Deletes every account's turns older than `days` days; returns how many. */
  expire(days: number): Promise<number> {
    return this.store.purgeCreatedBefore(new Date(this.now().getTime() - days * 86_400_000));
  }
}
