import { Speech, Transcription } from '@gateway/core';
import { routedDeps, type AreaWiring, type WiringContext } from './context';

/** Speech, transcription and translation: one metered use case each over the providers' ports of that kind. */
export function wireAudio(ctx: WiringContext) {
  const deps = routedDeps(ctx);
  const speech = new Speech(deps, (id) => ctx.providers.speech(id));
  const transcription = new Transcription(deps, (id) => ctx.providers.transcription(id));
  return { services: { speech, transcription } } satisfies AreaWiring;
}
