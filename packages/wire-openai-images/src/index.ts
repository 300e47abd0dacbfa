export { openAiImagesFormat } from './images.format';
export { imagesRoutes, type ImagesRouterDeps } from './images.router';
