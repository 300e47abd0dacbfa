import { openAiErrorShape, type WireFormat } from '@gateway/http-kit';
import { imagesRoutes, type ImagesRouterDeps } from './images.router';

/** OpenAI images: generations, edits and the expiring image URLs. */
export const openAiImagesFormat: WireFormat<ImagesRouterDeps> = {
  name: 'openai-images',
  routes: imagesRoutes,
  errorShapes: [openAiErrorShape],
};
