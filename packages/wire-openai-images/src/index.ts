export { openAiImagesFormat } from './images.format';
