import { Embeddings, Moderation, Rerank, Speech, Transcription } from '@gateway/core';
import { routedDeps, type AreaWiring, type WiringContext } from './context';

/** Embeddings, rerank, moderation, speech and transcription: one metered use case each over the providers' ports of that kind. */
export function wireMetered(ctx: WiringContext) {
  const deps = routedDeps(ctx);
  const { providers } = ctx;
  return {
    services: {
      embeddings: new Embeddings({ ...deps, providers, cache: ctx.responseCache }),
      rerank: new Rerank(deps, (id) => providers.rerank(id), ctx.responseCache),
      moderation: new Moderation(deps, (id) => providers.moderation(id)),
      speech: new Speech(deps, (id) => providers.speech(id)),
      transcription: new Transcription(deps, (id) => providers.transcription(id)),
    },
  } satisfies AreaWiring;
}
