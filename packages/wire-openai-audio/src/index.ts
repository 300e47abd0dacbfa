export { openAiAudioFormat } from './audio.format';
