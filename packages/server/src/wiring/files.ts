import { Files } from '@gateway/core';
import type { WiringContext } from './context';

/** The Files API: metadata in the store, bytes in the content store (CONTENT_STORE); the retention job sweeps expired files. */
export function wireFiles(ctx: WiringContext): Files {
  return new Files({ files: ctx.stores.files, content: ctx.content, now: ctx.clock, uploadBytes: ctx.env.fileUploadBytes });
}
