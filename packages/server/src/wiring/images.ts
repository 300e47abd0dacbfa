import path from 'node:path';
import { ImageGeneration, type Moderation } from '@gateway/core';
import { ContentImageStore, ExpiringImageFiles, FileContentStore } from '@gateway/store-files';
import { publicBaseUrlFor } from '../public-links';
import { routedDeps, type AreaWiring, type WiringContext } from './context';
import { wireGuardrails } from './guardrails';

/** Expired image files are removed this often (reads refuse them at once regardless). */
const SWEEP_EVERY_MS = 10 * 60 * 1000;

/**
 * Images: the image use case, and the expiring image URLs: under DATA_DIR/images with the file content store, in the
 * shared content store (postgres, S3) otherwise, so every replica serves them.
 */
export function wireImages(ctx: WiringContext, moderation: Moderation) {
  const images = new ImageGeneration({ ...routedDeps(ctx), providers: ctx.providers, guardrails: wireGuardrails(ctx, moderation) });
  const files =
    ctx.content instanceof FileContentStore
      ? new ExpiringImageFiles(path.join(ctx.env.dataDir, 'images'))
      : new ContentImageStore(ctx.content);
  let sweeper: NodeJS.Timeout | undefined;
  const area = {
    // the links' base is read per request: the request's own origin unless PUBLIC_BASE_URL is set (public-links.ts)
    services: { images, imageFiles: files, publicBaseUrl: publicBaseUrlFor(ctx.env) },
    start() {
      sweeper = setInterval(() => {
        files.sweep().catch((e) => ctx.logger.error('image sweep failed', { error: (e as Error).message }));
      }, SWEEP_EVERY_MS);
      sweeper.unref();
    },
    async stop() {
      if (sweeper) clearInterval(sweeper);
    },
  };
  return area satisfies AreaWiring;
}
