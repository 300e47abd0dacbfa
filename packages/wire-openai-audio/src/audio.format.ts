import { openAiErrorShape, type WireFormat } from '@gateway/http-kit';
import type { AudioRouterDeps } from './audio.services';
import { speechRoutes } from './speech.router';
import { transcriptionRoutes } from './transcription.router';

/** OpenAI audio: speech, transcriptions and translations. */
export const openAiAudioFormat: WireFormat<AudioRouterDeps> = {
  name: 'openai-audio',
  routes: [...speechRoutes, ...transcriptionRoutes],
  errorShapes: [openAiErrorShape],
};
