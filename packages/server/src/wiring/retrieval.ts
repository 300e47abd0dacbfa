import { Moderation, Rerank } from '@gateway/core';
import { routedDeps, type AreaWiring, type WiringContext } from './context';

/** Rerank and moderation: one metered use case each over the providers' ports of that kind. */
export function wireRetrieval(ctx: WiringContext) {
  const deps = routedDeps(ctx);
  const rerank = new Rerank(deps, (id) => ctx.providers.rerank(id));
  const moderation = new Moderation(deps, (id) => ctx.providers.moderation(id));
  return { services: { rerank, moderation } } satisfies AreaWiring;
}
