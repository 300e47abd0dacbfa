/** The image request rules: a decoded command checked against the model's capabilities. */
import type { Principal } from '../auth';
import { imageCapabilitiesOf, type ImageCapabilities, type ModelCatalogue, type ModelSpec } from '../catalogue';
import { invalid } from '../errors';
import type { ImageFormat, ImageInput, ImageRequest } from '../image';
import { probeClientImage } from '../image-probe';
import { resolveModel } from './resolve-model';

/** Rules that hold for every image model; what varies per model is its ImageCapabilities. */
export const IMAGE_LIMITS = Object.freeze({
  minN: 1,
  maxN: 10,
  /** input images per edit (OpenAI's own limit) */
  maxEditImages: 16,
  /** widest/tallest input image decoded: keeps a tiny, highly compressed file from becoming gigabytes of pixels */
  maxInputSide: 4096,
});

/** Request fields the rules name in errors, by their OpenAI names; other formats pass their own. */
export type ImageParam =
  | 'prompt'
  | 'n'
  | 'size'
  | 'quality'
  | 'style'
  | 'background'
  | 'output_format'
  | 'output_compression'
  | 'partial_images'
  | 'stream'
  | 'image'
  | 'mask';

export interface ImageFile {
  data: Uint8Array;
  /** the request field it came from, e.g. `image[1]` */
  param?: string;
}

/** A decoded wire request, not yet checked against the model. */
export interface ImageCommand {
  operation: 'generate' | 'edit';
  model: unknown;
  prompt: unknown;
  n?: number;
  size?: string;
  quality?: string;
  style?: string;
  background?: string;
  outputFormat?: string;
  outputCompression?: number;
  stream?: boolean;
  partialImages?: number;
  images?: ImageFile[];
  mask?: ImageFile;
  paramNames?: Partial<Record<ImageParam, string>>;
}

/** A command checked against the model: safe to send upstream. */
export interface PreparedImageCall {
  model: ModelSpec;
  operation: 'generate' | 'edit';
  request: ImageRequest;
  stream: boolean;
  /** what the response reports back */
  settings: { size: string; quality: string; background: string; outputFormat: ImageFormat };
}

const SIZE = /^([1-9]\d{0,4})x([1-9]\d{0,4})$/;

/** Checks one file from its bytes: PNG, JPEG or WebP, and not absurdly large in pixels. */
export function toImageInput(file: ImageFile, param: string): ImageInput {
  const probed = probeClientImage(file.data, param);
  if (!probed)
    throw invalid('invalid_image_file', `"${param}" must be a PNG, JPEG or WebP image (checked from its bytes, not its name).`, param);
  if (probed.width > IMAGE_LIMITS.maxInputSide || probed.height > IMAGE_LIMITS.maxInputSide) {
    throw invalid(
      'image_dimensions_too_large',
      `"${param}" is ${probed.width}x${probed.height}; images may be at most ${IMAGE_LIMITS.maxInputSide} pixels on each side.`,
      param,
    );
  }
  return { ...probed, data: file.data };
}

/** Checks a decoded command against the model (every rule of docs/images); the result is safe to send upstream. */
export function prepareImageCall(catalogue: ModelCatalogue, principal: Principal, cmd: ImageCommand): PreparedImageCall {
  const model = resolveModel(catalogue, principal, cmd.model, 'image');
  const caps = imageCapabilitiesOf(model);
  const name = (p: ImageParam) => cmd.paramNames?.[p] ?? p;
  const check = new CapabilityCheck(model.id, name);
  const edit = cmd.operation === 'edit';

  if (edit && !caps.edits) throw invalid('edits_not_supported', `Model ${model.id} does not support image edits.`, 'model');
  if (typeof cmd.prompt !== 'string' || !cmd.prompt.trim())
    throw invalid('invalid_prompt', `"${name('prompt')}" is required and must not be empty.`, name('prompt'));
  if (cmd.prompt.length > caps.maxPromptChars) {
    throw invalid(
      'prompt_too_long',
      `"${name('prompt')}" has ${cmd.prompt.length} characters; ${model.id} accepts at most ${caps.maxPromptChars}.`,
      name('prompt'),
    );
  }
  const n = cmd.n ?? 1;
  if (!Number.isInteger(n) || n < IMAGE_LIMITS.minN || n > IMAGE_LIMITS.maxN) {
    throw invalid('invalid_n', `"${name('n')}" must be an integer from ${IMAGE_LIMITS.minN} to ${IMAGE_LIMITS.maxN}.`, name('n'));
  }

  const stream = cmd.stream === true;
  if (stream && !caps.stream)
    throw invalid('stream_not_supported', `Model ${model.id} does not support "${name('stream')}": true.`, name('stream'));
  if (stream && n > 1)
    throw invalid('invalid_n', `Streaming returns one image; "${name('n')}" must be 1 with "${name('stream')}": true.`, name('n'));
  const partialImages = cmd.partialImages ?? 0;
  if (!Number.isInteger(partialImages) || partialImages < 0 || partialImages > caps.maxPartialImages) {
    throw invalid(
      'invalid_partial_images',
      `"${name('partial_images')}" must be an integer from 0 to ${caps.maxPartialImages} for ${model.id}.`,
      name('partial_images'),
    );
  }
  if (partialImages > 0 && !stream) {
    throw invalid('partial_images_require_stream', `"${name('partial_images')}" needs "${name('stream')}": true.`, name('partial_images'));
  }

  const outputFormat = (cmd.outputFormat ?? (caps.outputFormats.includes('png') ? 'png' : caps.outputFormats[0])) as ImageFormat;
  check.oneOf('output_format', 'invalid_output_format', cmd.outputFormat, caps.outputFormats);
  if (cmd.outputCompression !== undefined) {
    if (!Number.isInteger(cmd.outputCompression) || cmd.outputCompression < 0 || cmd.outputCompression > 100) {
      throw invalid(
        'invalid_output_compression',
        `"${name('output_compression')}" must be an integer from 0 to 100.`,
        name('output_compression'),
      );
    }
    if (outputFormat === 'png') {
      throw invalid(
        'invalid_output_compression',
        `"${name('output_compression')}" applies to jpeg and webp output only.`,
        name('output_compression'),
      );
    }
  }
  check.oneOf('quality', 'invalid_quality', cmd.quality, caps.qualities);
  check.oneOf('background', 'invalid_background', cmd.background, caps.backgrounds);
  if (cmd.background === 'transparent' && outputFormat === 'jpeg') {
    throw invalid(
      'invalid_background',
      `"${name('background')}": "transparent" needs "${name('output_format')}" png or webp.`,
      name('background'),
    );
  }
  if (edit && cmd.style !== undefined)
    throw invalid('invalid_style', `"${name('style')}" applies to image generations only.`, name('style'));
  check.oneOf('style', 'invalid_style', cmd.style, caps.styles);
  check.oneOf('size', 'invalid_size', cmd.size, caps.sizes);

  const { images, mask } = edit ? imageInputs(cmd, name) : { images: undefined, mask: undefined };
  const [width, height] = outputSize(cmd.size, caps, images?.[0]);
  return {
    model,
    operation: cmd.operation,
    stream,
    request: {
      model: model.id,
      prompt: cmd.prompt,
      n,
      width,
      height,
      quality: cmd.quality,
      style: cmd.style,
      background: cmd.background,
      outputFormat,
      images,
      mask,
      partialImages: stream ? partialImages : undefined,
      outputCompression: cmd.outputCompression,
    },
    settings: {
      size: `${width}x${height}`,
      quality: cmd.quality ?? (caps.qualities.includes('auto') || !caps.qualities.length ? 'auto' : (caps.qualities[0] ?? 'auto')),
      background: cmd.background ?? 'auto',
      outputFormat,
    },
  };
}

function imageInputs(cmd: ImageCommand, name: (p: ImageParam) => string): { images: ImageInput[]; mask?: ImageInput } {
  const files = cmd.images ?? [];
  if (!files.length) throw invalid('missing_image', `"${name('image')}" is required for an edit.`, name('image'));
  if (files.length > IMAGE_LIMITS.maxEditImages) {
    throw invalid('too_many_images', `An edit takes at most ${IMAGE_LIMITS.maxEditImages} images; got ${files.length}.`, name('image'));
  }
  const images = files.map((f, i) => toImageInput(f, f.param ?? (files.length > 1 ? `${name('image')}[${i}]` : name('image'))));
  if (!cmd.mask) return { images };
  const maskParam = cmd.mask.param ?? name('mask');
  const mask = toImageInput(cmd.mask, maskParam);
  if (mask.mediaType !== 'image/png')
    throw invalid('invalid_mask', `"${maskParam}" must be a PNG with an alpha channel (transparent = the area to edit).`, maskParam);
  const [image] = images as [ImageInput, ...ImageInput[]]; // files is not empty (checked above)
  if (mask.width !== image.width || mask.height !== image.height) {
    throw invalid(
      'mask_size_mismatch',
      `"${maskParam}" is ${mask.width}x${mask.height} but the image is ${image.width}x${image.height}; they must match.`,
      maskParam,
    );
  }
  return { images, mask };
}

/** Refusals that name the field and list what the model allows. */
class CapabilityCheck {
  constructor(
    private readonly modelId: string,
    private readonly name: (p: ImageParam) => string,
  ) {}

  oneOf(param: ImageParam, code: string, value: string | undefined, allowed: string[]): void {
    if (value === undefined || allowed.includes(value)) return;
    const field = this.name(param);
    if (!allowed.length) throw invalid(code, `Model ${this.modelId} does not support "${field}".`, field);
    throw invalid(
      code,
      `"${field}" ${JSON.stringify(String(value).slice(0, 100))} is not supported by ${this.modelId}; allowed values: ${allowed.join(', ')}.`,
      field,
    );
  }
}

/** Explicit size, else (or for "auto") the first image's size for edits, the model's first concrete size for generations. */
function outputSize(size: string | undefined, caps: Required<ImageCapabilities>, firstImage?: ImageInput): [number, number] {
  const explicit = size && size !== 'auto' ? SIZE.exec(size) : null;
  if (explicit) return [Number(explicit[1]), Number(explicit[2])];
  if (firstImage) return [firstImage.width, firstImage.height];
  const fallback = caps.sizes.map((s) => SIZE.exec(s)).find(Boolean);
  return fallback ? [Number(fallback[1]), Number(fallback[2])] : [1024, 1024];
}
