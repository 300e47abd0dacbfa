import { Embeddings } from '@gateway/core';
import { routedDeps, type AreaWiring, type WiringContext } from './context';

/** Embeddings: the use case every embeddings route (OpenAI, Gemini) shares. */
export function wireEmbeddings(ctx: WiringContext) {
  return { services: { embeddings: new Embeddings({ ...routedDeps(ctx), providers: ctx.providers }) } } satisfies AreaWiring;
}
