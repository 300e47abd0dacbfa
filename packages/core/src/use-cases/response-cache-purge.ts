import type { AuditContext, AuditedChanges } from '../ports/audit-log.port';
import type { CachePurge, ResponseCacheStore } from '../ports/response-cache-store.port';

export interface ResponseCachePurgeDeps {
  store: ResponseCacheStore;
  audit: AuditedChanges;
  author: AuditContext;
}

/**
 * The platform admin's purge of response cache entries, by model, account, both or all (the admin API and the CLI),
 * audited as `cache.purge`. The entries go first and the record after: the store may not be the database (Redis),
 * so the two cannot share a transaction, and a purge that fails writes no record.
 */
export class ResponseCachePurge {
  constructor(private readonly deps: ResponseCachePurgeDeps) {}

  as(author: AuditContext): ResponseCachePurge {
    return new ResponseCachePurge({ ...this.deps, author });
  }

  async purge(filter: CachePurge): Promise<number> {
    const purged = await this.deps.store.purge(filter);
    const after = { model: filter.model ?? null, account: filter.accountId ?? null, purged };
    return await this.deps.audit.run(this.deps.author, async () => ({
      result: purged,
      audit: {
        action: 'cache.purge',
        target: { type: 'cache', id: filter.model ?? '*' },
        accountId: filter.accountId ?? null,
        before: null,
        after,
      },
    }));
  }
}
