import type { ConversationKind, ConversationStore, StoredTurn } from '@gateway/core';

/** Stored conversations in memory, scoped by account and kind as the Postgres store is. */
export class InMemoryConversationStore implements ConversationStore {
  readonly turns: StoredTurn[] = [];

  async save(turn: StoredTurn): Promise<void> {
    if (this.turns.some((t) => t.id === turn.id)) throw new Error(`duplicate stored turn id ${turn.id}`);
    this.turns.push(structuredClone(turn));
  }

  async find(accountId: string, kind: ConversationKind, id: string): Promise<StoredTurn | null> {
    const found = this.turns.find((t) => t.accountId === accountId && t.kind === kind && t.id === id);
    return found ? structuredClone(found) : null;
  }

  async delete(accountId: string, kind: ConversationKind, id: string): Promise<boolean> {
    const i = this.turns.findIndex((t) => t.accountId === accountId && t.kind === kind && t.id === id);
    if (i >= 0) this.turns.splice(i, 1);
    return i >= 0;
  }

  async purgeCreatedBefore(cutoff: Date): Promise<number> {
    const before = this.turns.length;
    const kept = this.turns.filter((t) => t.createdAt >= cutoff);
    this.turns.splice(0, this.turns.length, ...kept);
    return before - kept.length;
  }
}
