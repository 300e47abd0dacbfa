export { openAiImagesFormat, type ImagesFormatDeps } from './images.format';
export { openAiImagesRouter, type ImagesRouterDeps } from './images.router';
