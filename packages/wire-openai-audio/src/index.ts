export { openAiAudioFormat } from './audio.format';
export type { AudioRouterDeps } from './audio.services';
