import type { Message } from '../text';

/** What a stored turn continues: a Responses response (`previous_response_id`) or an Anthropic message-thread turn. */
export type ConversationKind = 'response' | 'thread';

/** The canonical history a stored turn continues from. */
export interface StoredConversation {
  /** system text that travels with the conversation (system/developer input items, compaction) */
  system?: string;
  /** every message so far, ending with this turn's own output */
  messages: Message[];
}

export interface StoredTurn {
  id: string;
  kind: ConversationKind;
  accountId: string;
  model: string;
  /** the turn this one continues, of the same kind */
  previousId: string | null;
  createdAt: Date;
  /** the turn as its wire format rendered it; opaque to the core, replayed by reads */
  document: Record<string, unknown>;
  conversation: StoredConversation;
}

/** Stored turns, always scoped to one account and one kind: another account's or another kind's id behaves as missing. */
export interface ConversationStore {
  save(turn: StoredTurn): Promise<void>;
  /** Null when it does not exist, belongs to another account or is of another kind. */
  find(accountId: string, kind: ConversationKind, id: string): Promise<StoredTurn | null>;
  /** True when a turn of this account and kind was deleted. */
  delete(accountId: string, kind: ConversationKind, id: string): Promise<boolean>;
  /** Deletes the turns created before the cutoff, every account's and kind's; returns how many. */
  purgeCreatedBefore(cutoff: Date): Promise<number>;
}
