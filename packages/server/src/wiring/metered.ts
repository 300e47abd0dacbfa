import { Embeddings, Moderation, Rerank, Speech, Transcription } from '@gateway/core';
import { routedDeps, type AreaWiring, type WiringContext } from './context';
import { wireGuardrails } from './guardrails';

/** Embeddings, rerank, moderation, speech and transcription: one metered use case each over the providers' ports of that kind. */
export function wireMetered(ctx: WiringContext) {
  const deps = routedDeps(ctx);
  const { providers } = ctx;
  const moderation = new Moderation(deps, (id) => providers.moderation(id));
  return {
    services: {
      embeddings: new Embeddings({ ...deps, providers, cache: ctx.responseCache, guardrails: wireGuardrails(ctx, moderation) }),
      rerank: new Rerank(deps, (id) => providers.rerank(id), ctx.responseCache),
      moderation,
      speech: new Speech(deps, (id) => providers.speech(id)),
      transcription: new Transcription(deps, (id) => providers.transcription(id)),
    },
  } satisfies AreaWiring;
}
