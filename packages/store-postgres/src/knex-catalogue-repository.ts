import type { AuditChange, AuditContext, CatalogueEntryKind, CatalogueRepository } from '@gateway/core';
import type { KnexAuditedChanges } from './knex-audited-changes';
import type { KnexConfigStore } from './knex-config-store';

/** The catalogue's admin writes: the config store's entry and its audit record in the audit log's one transaction. */
export class KnexCatalogueRepository implements CatalogueRepository {
  constructor(
    private readonly config: KnexConfigStore,
    private readonly audit: KnexAuditedChanges,
  ) {}

  entries() {
    return this.config.entries();
  }

  async putAudited(author: AuditContext, kind: CatalogueEntryKind, id: string, body: Record<string, unknown> | null, audit: AuditChange) {
    await this.audit.run(author, async ({ trx }) => {
      await this.config.put(kind, id, body, trx);
      return { result: undefined, audit };
    });
  }
}
