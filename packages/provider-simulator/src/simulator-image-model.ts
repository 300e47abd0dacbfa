import jpeg from 'jpeg-js';
import { PNG } from 'pngjs';
import { encodePng } from './png-encode';
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
} from '@gateway/core';
import { hash } from './simulated-arguments';
import { countTokens, FAIL_MARKER } from './simulator-text-model';

type Rgb = [number, number, number];

/** A color word in the prompt becomes the color of the main shape, or of the edit. */
const COLOR_WORDS: Record<string, Rgb> = {
  red: [220, 40, 40],
  orange: [245, 140, 30],
  yellow: [245, 215, 40],
  green: [50, 170, 70],
  blue: [40, 90, 220],
  purple: [130, 60, 190],
  violet: [140, 80, 220],
  pink: [240, 120, 180],
  white: [250, 250, 250],
  black: [15, 15, 15],
  gray: [128, 128, 128],
  grey: [128, 128, 128],
  brown: [130, 80, 40],
  cyan: [40, 200, 220],
  magenta: [210, 40, 190],
  teal: [30, 140, 140],
  gold: [212, 175, 55],
  silver: [192, 192, 192],
};

export function promptColor(prompt: string): Rgb | undefined {
  for (const word of prompt.toLowerCase().match(/[a-z]+/g) ?? []) if (COLOR_WORDS[word]) return COLOR_WORDS[word];
  return undefined;
}

/** A saturated color picked by the hash of a seed. */
export function hashedColor(seed: string): Rgb {
  const h = hash(seed);
  const hue = (h % 360) / 60;
  const x = 1 - Math.abs((hue % 2) - 1);
  const [r, g, b] = hue < 1 ? [1, x, 0] : hue < 2 ? [x, 1, 0] : hue < 3 ? [0, 1, x] : hue < 4 ? [0, x, 1] : hue < 5 ? [x, 0, 1] : [1, 0, x];
  const lift = 40 + ((h >>> 9) % 60);
  return [Math.round(lift + r * (215 - lift)), Math.round(lift + g * (215 - lift)), Math.round(lift + b * (215 - lift))];
}

/** RGBA pixels: a gradient and a few shapes, all chosen from the prompt's hash. */
export function renderPicture(prompt: string, index: number, width: number, height: number, transparent: boolean): Uint8Array {
  const seed = `${prompt}#${index}`;
  const px = new Uint8Array(width * height * 4);
  const [a, b] = [hashedColor(`${seed}/bg1`), hashedColor(`${seed}/bg2`)];
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const t = (x / width + y / height) / 2;
      const o = (y * width + x) * 4;
      px[o] = a[0] + (b[0] - a[0]) * t;
      px[o + 1] = a[1] + (b[1] - a[1]) * t;
      px[o + 2] = a[2] + (b[2] - a[2]) * t;
      px[o + 3] = transparent ? 0 : 255;
    }
  }
  const shapes = 3 + (hash(`${seed}/count`) % 4);
  const side = Math.min(width, height);
  for (let s = 0; s < shapes; s++) {
    const h = hash(`${seed}/shape${s}`);
    const color = (s === shapes - 1 && promptColor(prompt)) || hashedColor(`${seed}/color${s}`); // the prompt's color on top
    const cx = ((h % 1000) / 1000) * width;
    const cy = (((h >>> 10) % 1000) / 1000) * height;
    const r = side * (0.08 + ((h >>> 20) % 22) / 100);
    const round = h % 2 === 0;
    for (let y = Math.max(0, Math.floor(cy - r)); y < Math.min(height, Math.ceil(cy + r)); y++) {
      for (let x = Math.max(0, Math.floor(cx - r)); x < Math.min(width, Math.ceil(cx + r)); x++) {
        if (round && (x - cx) ** 2 + (y - cy) ** 2 > r * r) continue;
        const o = (y * width + x) * 4;
        px[o] = color[0];
        px[o + 1] = color[1];
        px[o + 2] = color[2];
        px[o + 3] = 255;
      }
    }
  }
  return px;
}

function decode(input: ImageInput): { width: number; height: number; data: Uint8Array } | null {
  const buf = Buffer.from(input.data.buffer, input.data.byteOffset, input.data.byteLength);
  try {
    if (input.mediaType === 'image/png') return PNG.sync.read(buf);
    if (input.mediaType === 'image/jpeg')
      return jpeg.decode(buf, { useTArray: true, formatAsRGBA: true, maxResolutionInMP: 20, maxMemoryUsageInMB: 256 });
  } catch {
    throw invalid('undecodable_image', 'The image could not be decoded.', 'image');
  }
  return null; // WebP: no pure-JS decoder here
}

/** Nearest-neighbour resize of RGBA pixels. */
function resize(src: { width: number; height: number; data: Uint8Array }, width: number, height: number): Uint8Array {
  if (src.width === width && src.height === height) return Uint8Array.from(src.data);
  const out = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++) {
    const sy = Math.min(src.height - 1, Math.floor((y * src.height) / height));
    for (let x = 0; x < width; x++) {
      const sx = Math.min(src.width - 1, Math.floor((x * src.width) / width));
      out.set(src.data.subarray((sy * src.width + sx) * 4, (sy * src.width + sx) * 4 + 4), (y * width + x) * 4);
    }
  }
  return out;
}

/** The visible edit: the color into the mask's transparent area, or (no mask) a tint and a border. */
function applyEdit(px: Uint8Array, width: number, height: number, color: Rgb, mask: Uint8Array | undefined, variant: number): void {
  const border = Math.max(2, Math.round(Math.min(width, height) * 0.04)) * (1 + variant);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const o = (y * width + x) * 4;
      const onBorder = x < border || y < border || x >= width - border || y >= height - border;
      const mix = mask ? (mask[o + 3] < 128 ? 1 : 0) : onBorder ? 1 : 0.35;
      if (!mix) continue;
      for (let c = 0; c < 3; c++) px[o + c] = px[o + c] * (1 - mix) + color[c] * mix;
      if (mix === 1) px[o + 3] = 255;
    }
  }
}

async function encode(px: Uint8Array, req: ImageRequest, revisedPrompt: string): Promise<GeneratedImage> {
  const { width, height } = req;
  if (req.outputFormat === 'jpeg') {
    const data = jpeg.encode(
      { data: Buffer.from(px.buffer, px.byteOffset, px.byteLength), width, height },
      Math.max(1, req.outputCompression ?? 90),
    ).data;
    return { mediaType: 'image/jpeg', data, revisedPrompt };
  }
  if (req.outputFormat !== 'png') {
    throw invalid('unsupported_output_format', `The simulator cannot produce ${req.outputFormat}; use png or jpeg.`, 'output_format');
  }
  // RGBA as rendered, no row filters (zlib alone compresses these flat pictures well), deflated off the event loop
  const data = await encodePng(px, width, height);
  return { mediaType: 'image/png', data, revisedPrompt };
}

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
 * The largest input the simulator decodes: its decoders are pure JS on the event loop, so a bigger input
 * would stall every other request. Bigger inputs are edited as a generated picture, with a warning.
 */
const DECODE_MAX_PIXELS = 1_000_000;

const decodable = (input: ImageInput) => input.width * input.height <= DECODE_MAX_PIXELS;

/** Real PNG/JPEG pictures of the requested size; edits visibly change the input. */
export class SimulatorImageModel implements ImageModelPort {
  private pixels(req: ImageRequest, index: number, warnings: Warning[]): Uint8Array {
    if (req.prompt.includes(FAIL_MARKER)) {
      throw new GatewayError('upstream_error', `The simulator was asked to fail (${FAIL_MARKER} in the prompt).`, {
        code: 'simulated_failure',
      });
    }
    const transparent = req.background === 'transparent';
    const first = req.images?.[0];
    if (!first) return renderPicture(req.prompt, index, req.width, req.height, transparent);
    const decoded = decodable(first) ? decode(first) : null;
    if (!decodable(first))
      warnings.push({
        type: 'other',
        message: `The simulator decodes inputs of up to ${DECODE_MAX_PIXELS} pixels; the edit is applied to a generated picture.`,
      });
    else if (!decoded)
      warnings.push({ type: 'other', message: 'The simulator cannot decode WebP input; the edit is applied to a generated picture.' });
    const px = decoded ? resize(decoded, req.width, req.height) : renderPicture(req.prompt, index, req.width, req.height, transparent);
    const maskImage = req.mask && decodable(req.mask) && decode(req.mask);
    const mask = maskImage ? resize(maskImage, req.width, req.height) : undefined;
    applyEdit(px, req.width, req.height, promptColor(req.prompt) ?? hashedColor(req.prompt), mask, index);
    return px;
  }

  private revised(req: ImageRequest, index: number): string {
    return req.images
      ? `${req.prompt} (simulated edit ${index + 1} of ${req.n})`
      : `A simulated picture of: ${req.prompt} (${index + 1} of ${req.n})`;
  }

  async generate(req: ImageRequest, _ctx: CallContext): Promise<ImageResult> {
    const warnings: Warning[] = [];
    const images = [];
    for (let i = 0; i < req.n; i++) {
      // one picture at a time, letting other requests run in between
      if (i > 0) await new Promise((r) => setImmediate(r));
      images.push(await encode(this.pixels(req, i, warnings), req, this.revised(req, i)));
    }
    return { images, warnings, usage: usageOf(req) };
  }

  /** Partial k of p shows the top (k+1)/(p+1) of the picture over flat grey. */
  async *stream(req: ImageRequest, ctx: CallContext): AsyncIterable<ImageStreamPart> {
    const warnings: Warning[] = [];
    for (let i = 0; i < req.n; i++) {
      const px = this.pixels(req, i, warnings);
      const partials = req.partialImages ?? 0;
      for (let k = 0; k < partials; k++) {
        await new Promise((r) => setImmediate(r));
        if (ctx.signal.aborted) return;
        const partial = Uint8Array.from(px);
        partial.fill(160, Math.floor((req.height * (k + 1)) / (partials + 1)) * req.width * 4);
        yield { type: 'partial-image', partialIndex: k, image: await encode(partial, req, this.revised(req, i)) };
      }
      yield { type: 'image', image: await encode(px, req, this.revised(req, i)) };
    }
    yield { type: 'finish', warnings, usage: usageOf(req) };
  }
}
