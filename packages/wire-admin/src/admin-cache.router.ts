import { GatewayError, type ResponseCachePurge } from '@gateway/core';
import { adminRouteOf, changedBy, jsonContent as json, queryParam, queryParams } from '@gateway/http-kit';

/** What the cache route works with: the purge, absent when the gateway has no response cache store. */
export interface AdminCacheDeps {
  responseCachePurge?: ResponseCachePurge;
}

const route = adminRouteOf<AdminCacheDeps>();

/** `?model=&account=`: each at most once (a repeated one is refused, not ignored). */
const PURGE_QUERY = queryParams<{ model?: string; account?: string }>([
  queryParam('model', 'Only entries of this model (its client-facing id).', { type: 'string', minLength: 1 }),
  queryParam('account', 'Only entries of this account.', { type: 'string', minLength: 1 }),
]);

/** The platform admin's purge of the response cache (docs/cache.md). */
export const adminCacheRoutes = [
  route({
    method: 'delete',
    path: '/admin/cache',
    summary: 'Purge the response cache',
    description:
      'Deletes cached answers (text, embeddings items, rerank) of one model, one account, both, or, with neither, all of them. Audited as `cache.purge`.',
    params: PURGE_QUERY.params,
    query: PURGE_QUERY,
    response: {
      description: 'How many entries went.',
      content: json({
        type: 'object',
        required: ['object', 'purged'],
        properties: {
          object: { const: 'cache.purge' },
          model: { type: ['string', 'null'] },
          account: { type: ['string', 'null'] },
          purged: { type: 'integer' },
        },
      }),
    },
    async handle(ctx, req, res) {
      const { model, account } = ctx.query;
      const purge = ctx.deps.responseCachePurge;
      if (!purge) throw new GatewayError('invalid_request', 'This gateway has no response cache store.', { code: 'cache_unavailable' });
      const purged = await purge.as(changedBy(ctx, req)).purge({ model, accountId: account });
      res.json({ object: 'cache.purge', model: model ?? null, account: account ?? null, purged });
    },
  }),
];
