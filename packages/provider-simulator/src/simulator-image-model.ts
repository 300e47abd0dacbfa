import {
  GatewayError,
  invalid,
  type CallContext,
  type GeneratedImage,
  type ImageInput,
  type ImageModelPort,
  type ImageRequest,
  type ImageResult,
  type ImageStreamPart,
  type ImageUsage,
  type Warning,
} from '@gateway/provider-kit';
import { hashedColor, promptColor } from './image-colors';
import type { PictureJob, PixelInput } from './image-pixels';
import { ImagePool } from './image-pool';
import { countTokens, FAIL_MARKER } from './simulator-text-model';

export { promptColor } from './image-colors';

/** Tiles of 512x512 stand in for image tokens: deterministic and easy to check. */
const tiles = (w: number, h: number) => Math.ceil(w / 512) * Math.ceil(h / 512);

function usageOf(req: ImageRequest): ImageUsage {
  return {
    inputTextTokens: countTokens(req.prompt),
    inputImageTokens: (req.images ?? []).reduce((sum, i) => sum + 85 * tiles(i.width, i.height), 0),
    outputTokens: req.n * 170 * tiles(req.width, req.height),
  };
}

/**
 * The largest input the simulator decodes (pure JS, in the pool's threads): bigger inputs are edited as a generated
 * picture, with a warning, which keeps the simulator's work per request bounded.
 */
const DECODE_MAX_PIXELS = 1_000_000;

const pixelInput = (i: ImageInput): PixelInput => ({ mediaType: i.mediaType, data: i.data, width: i.width, height: i.height });

/**
 * Real PNG/JPEG pictures of the requested size; edits visibly change the input. The pixel work runs in worker
 * threads (image-pool.ts), so the largest request never holds up the event loop.
 */
export class SimulatorImageModel implements ImageModelPort {
  constructor(private readonly pool = new ImagePool()) {}

  private async picture(req: ImageRequest, index: number, partials: number, warnings: Warning[]): Promise<GeneratedImage[]> {
    if (req.prompt.includes(FAIL_MARKER)) {
      throw new GatewayError('upstream_error', `The simulator was asked to fail (${FAIL_MARKER} in the prompt).`, {
        code: 'simulated_failure',
      });
    }
    if (req.outputFormat !== 'png' && req.outputFormat !== 'jpeg') {
      throw invalid('unsupported_output_format', `The simulator cannot produce ${req.outputFormat}; use png or jpeg.`, 'output_format');
    }
    const job: PictureJob = {
      prompt: req.prompt,
      index,
      width: req.width,
      height: req.height,
      transparent: req.background === 'transparent',
      image: req.images?.[0] && pixelInput(req.images[0]),
      mask: req.mask && pixelInput(req.mask),
      editColor: promptColor(req.prompt) ?? hashedColor(req.prompt),
      outputFormat: req.outputFormat,
      outputCompression: req.outputCompression,
      partials,
      decodeMaxPixels: DECODE_MAX_PIXELS,
    };
    const result = await this.pool.run(job, (r) => invalid(r.code, r.message, r.param));
    for (const message of result.warnings)
      if (!warnings.some((w) => w.type === 'other' && w.message === message)) warnings.push({ type: 'other', message });
    const mediaType = req.outputFormat === 'jpeg' ? 'image/jpeg' : 'image/png';
    return result.encoded.map((data) => ({
      mediaType,
      data: Buffer.from(data.buffer, data.byteOffset, data.byteLength),
      revisedPrompt: this.revised(req, index),
    }));
  }

  private revised(req: ImageRequest, index: number): string {
    return req.images
      ? `${req.prompt} (simulated edit ${index + 1} of ${req.n})`
      : `A simulated picture of: ${req.prompt} (${index + 1} of ${req.n})`;
  }

  async generate(req: ImageRequest, _ctx: CallContext): Promise<ImageResult> {
    const warnings: Warning[] = [];
    const images: GeneratedImage[] = [];
    for (let i = 0; i < req.n; i++) images.push(...(await this.picture(req, i, 0, warnings)));
    // the simulator paints transparent pixels only when asked to
    return { images, warnings, usage: usageOf(req), used: { background: req.background === 'transparent' ? 'transparent' : 'opaque' } };
  }

  async *stream(req: ImageRequest, ctx: CallContext): AsyncIterable<ImageStreamPart> {
    const warnings: Warning[] = [];
    for (let i = 0; i < req.n; i++) {
      const made = await this.picture(req, i, req.partialImages ?? 0, warnings);
      const final = made.pop()!;
      for (const [k, image] of made.entries()) {
        if (ctx.signal.aborted) return;
        yield { type: 'partial-image', partialIndex: k, image };
      }
      yield { type: 'image', image: final };
    }
    yield { type: 'finish', warnings, usage: usageOf(req) };
  }

  /** Ends the pool's threads now (the provider's close). */
  close(): Promise<void> {
    return this.pool.close();
  }

  /** Ends the pool's threads once the pictures in progress are made (a config reload replaced the provider). */
  drain(): void {
    this.pool.drain();
  }
}
