/**
 * The simulator's pictures as pure pixel work (render, decode, resize, edit, encode): run in the image worker
 * threads (image-worker.ts), never on the event loop. Decoding refusals come back as ImageWorkError.
 */
import { deflateSync } from 'node:zlib';
import jpeg from 'jpeg-js';
import { PNG } from 'pngjs';
import { pngFromDeflated, rawPngRows } from './png-encode';
import { hash } from './simulated-arguments';
import { hashedColor, promptColor, type Rgb } from './image-colors';

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

export function decode(input: PixelInput): { width: number; height: number; data: Uint8Array } | null {
  const buf = Buffer.from(input.data.buffer, input.data.byteOffset, input.data.byteLength);
  try {
    if (input.mediaType === 'image/png') return PNG.sync.read(buf);
    if (input.mediaType === 'image/jpeg')
      return jpeg.decode(buf, { useTArray: true, formatAsRGBA: true, maxResolutionInMP: 20, maxMemoryUsageInMB: 256 });
  } catch {
    throw new ImageWorkError('undecodable_image', 'The image could not be decoded.', 'image');
  }
  return null; // WebP: no pure-JS decoder here
}

/** Nearest-neighbour resize of RGBA pixels. */
export function resize(src: { width: number; height: number; data: Uint8Array }, width: number, height: number): Uint8Array {
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
export function applyEdit(px: Uint8Array, width: number, height: number, color: Rgb, mask: Uint8Array | undefined, variant: number): void {
  const border = Math.max(2, Math.round(Math.min(width, height) * 0.04)) * (1 + variant);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const o = (y * width + x) * 4;
      const onBorder = x < border || y < border || x >= width - border || y >= height - border;
      const mix = mask ? ((mask[o + 3] ?? 255) < 128 ? 1 : 0) : onBorder ? 1 : 0.35;
      if (!mix) continue;
      for (let c = 0; c < 3; c++) px[o + c] = px[o + c]! * (1 - mix) + color[c]! * mix;
      if (mix === 1) px[o + 3] = 255;
    }
  }
}

/** A refusal found while working on pixels, carried back to the main thread as data. */
export class ImageWorkError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly param: string,
  ) {
    super(message);
  }
}

export interface PixelInput {
  mediaType: string;
  data: Uint8Array;
  width: number;
  height: number;
}

/** One picture to make: what SimulatorImageModel asks of a worker. */
export interface PictureJob {
  prompt: string;
  index: number;
  width: number;
  height: number;
  transparent: boolean;
  image?: PixelInput;
  mask?: PixelInput;
  /** the edit's color: the prompt's, else one hashed from it */
  editColor: Rgb;
  outputFormat: 'png' | 'jpeg';
  outputCompression?: number;
  /** partial pictures to make before the final one (streams) */
  partials: number;
  /** inputs larger than this are not decoded (an edit of a generated picture instead) */
  decodeMaxPixels: number;
}

export interface PictureResult {
  /** the partial pictures, then the final one, encoded */
  encoded: Uint8Array[];
  warnings: string[];
}

const decodable = (input: PixelInput, max: number) => input.width * input.height <= max;

function pixels(job: PictureJob, warnings: string[]): Uint8Array {
  const { width, height } = job;
  if (!job.image) return renderPicture(job.prompt, job.index, width, height, job.transparent);
  const decoded = decodable(job.image, job.decodeMaxPixels) ? decode(job.image) : null;
  if (!decodable(job.image, job.decodeMaxPixels))
    warnings.push(`The simulator decodes inputs of up to ${job.decodeMaxPixels} pixels; the edit is applied to a generated picture.`);
  else if (!decoded) warnings.push('The simulator cannot decode WebP input; the edit is applied to a generated picture.');
  const px = decoded ? resize(decoded, width, height) : renderPicture(job.prompt, job.index, width, height, job.transparent);
  const maskImage = job.mask && decodable(job.mask, job.decodeMaxPixels) && decode(job.mask);
  const mask = maskImage ? resize(maskImage, width, height) : undefined;
  applyEdit(px, width, height, job.editColor, mask, job.index);
  return px;
}

function encodePixels(px: Uint8Array, job: PictureJob): Uint8Array {
  const { width, height } = job;
  if (job.outputFormat === 'jpeg')
    return jpeg.encode(
      { data: Buffer.from(px.buffer, px.byteOffset, px.byteLength), width, height },
      Math.max(1, job.outputCompression ?? 90),
    ).data;
  return pngFromDeflated(width, height, deflateSync(rawPngRows(px, width, height), { level: 6 }));
}

/** Renders (or edits) one picture and encodes it and its partials. */
export function makePicture(job: PictureJob): PictureResult {
  const warnings: string[] = [];
  const px = pixels(job, warnings);
  const encoded: Uint8Array[] = [];
  for (let k = 0; k < job.partials; k++) {
    // partial k of p shows the top (k+1)/(p+1) of the picture over flat grey
    const partial = Uint8Array.from(px);
    partial.fill(160, Math.floor((job.height * (k + 1)) / (job.partials + 1)) * job.width * 4);
    encoded.push(encodePixels(partial, job));
  }
  encoded.push(encodePixels(px, job));
  return { encoded, warnings };
}
