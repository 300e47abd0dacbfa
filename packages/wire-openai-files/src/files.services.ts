import type { Files } from '@gateway/core';

export interface FilesRouterDeps {
  files: Files;
}

/** The text fields of an upload form, decoded and not yet checked (the use case checks them). */
export type UploadFields = Awaited<Parameters<Files['upload']>[1]['fields']>;
