import { openAiErrorShape, type WireFormat } from '@gateway/http-kit';
import type { GeneratedImageStore } from '@gateway/core';
import { imagesRoutes } from './images.openapi';
import { openAiImagesRouter, type ImagesRouterDeps } from './images.router';

export interface ImagesFormatDeps extends Omit<ImagesRouterDeps, 'files'> {
  imageFiles: GeneratedImageStore;
}

/** OpenAI images: generations, edits and the expiring image URLs. */
export const openAiImagesFormat: WireFormat<ImagesFormatDeps> = {
  name: 'openai-images',
  routers: ({ imageFiles, ...deps }) => [openAiImagesRouter({ ...deps, files: imageFiles })],
  routeDocs: imagesRoutes,
  errorShapes: [openAiErrorShape],
};
