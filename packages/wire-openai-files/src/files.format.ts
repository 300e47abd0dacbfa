import { openAiErrorShape, type WireFormat } from '@gateway/http-kit';
import { filesRoutes } from './files.router';
import type { FilesRouterDeps } from './files.services';

/** OpenAI files: upload, list, read, download and delete an account's files. */
export const openAiFilesFormat: WireFormat<FilesRouterDeps> = {
  name: 'openai-files',
  routes: filesRoutes,
  errorShapes: [openAiErrorShape],
};
