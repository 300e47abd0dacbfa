import type { ImageRequest, ImageResult, ImageStreamPart } from '../image';
import type { CallContext } from './text-model.port';

export interface ImageModelPort {
  generate(request: ImageRequest, ctx: CallContext): Promise<ImageResult>;
  /** Optional: partial images while rendering (n is 1). Without it, the use case streams generate()'s result. */
  stream?(request: ImageRequest, ctx: CallContext): AsyncIterable<ImageStreamPart>;
}
