import type { Knex } from 'knex';
import type { ConversationKind, ConversationStore, StoredConversation, StoredTurn } from '@gateway/core';
import { columnsOf, json } from './row-values';

function toStored(r: Record<string, any>): StoredTurn {
  return {
    ...columnsOf(r, ['id', 'kind', 'accountId', 'model']),
    previousId: r.previous_response_id ?? null,
    createdAt: new Date(r.created_at),
    document: json<Record<string, unknown>>(r.document)!,
    conversation: json<StoredConversation>(r.conversation)!,
  };
}

/**
 * Stored conversation turns (Responses' responses and Anthropic's thread turns, told apart by `kind`). Every read
 * and delete filters on account_id and kind, so one account can never read or delete another's turns.
 */
export class KnexResponseStore implements ConversationStore {
  constructor(private readonly db: Knex) {}

  async save(r: StoredTurn): Promise<void> {
    await this.db('responses').insert({
      id: r.id,
      kind: r.kind,
      account_id: r.accountId,
      model: r.model,
      previous_response_id: r.previousId,
      document: JSON.stringify(r.document),
      conversation: JSON.stringify(r.conversation),
      created_at: r.createdAt,
    });
  }

  async find(accountId: string, kind: ConversationKind, id: string): Promise<StoredTurn | null> {
    const r = await this.db('responses').where({ id, account_id: accountId, kind }).first();
    return r ? toStored(r) : null;
  }

  async delete(accountId: string, kind: ConversationKind, id: string): Promise<boolean> {
    // returning() rather than the affected-row count: the PGlite client does not report counts for deletes.
    const rows = await this.db('responses').where({ id, account_id: accountId, kind }).delete().returning('id');
    return rows.length > 0;
  }

  /** Deletes turns created before the cutoff, every account's and kind's, `batch` rows per statement; returns how many. */
  async purgeCreatedBefore(cutoff: Date, batch = 1000): Promise<number> {
    let total = 0;
    for (;;) {
      const oldest = this.db('responses').select('id').where('created_at', '<', cutoff).orderBy('created_at').limit(batch);
      const rows = await this.db('responses').whereIn('id', oldest).delete().returning('id');
      total += rows.length;
      if (rows.length < batch) return total;
    }
  }
}
