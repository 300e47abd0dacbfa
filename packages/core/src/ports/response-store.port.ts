import type { Message } from '../text';

/** The canonical history a stored response continues from. */
export interface StoredConversation {
  /** system text that travels with the conversation (system/developer input items, compaction) */
  system?: string;
  /** every message so far, ending with this response's own output */
  messages: Message[];
}

export interface StoredResponse {
  id: string;
  accountId: string;
  model: string;
  previousResponseId: string | null;
  createdAt: Date;
  /** the response as its wire format rendered it; opaque to the core, replayed by reads */
  document: Record<string, unknown>;
  conversation: StoredConversation;
}

/** Stored responses, always scoped to one account: another account's id behaves as missing. */
export interface ResponseStore {
  save(response: StoredResponse): Promise<void>;
  /** Null when it does not exist or belongs to another account. */
  findForAccount(accountId: string, id: string): Promise<StoredResponse | null>;
  /** True when a response of this account was deleted. */
  deleteForAccount(accountId: string, id: string): Promise<boolean>;
}
