import { invalid, probeClientImage, type VideoImage, type VideoRequestDraft } from '@gateway/core';
import { jsonRequestBody, refusalsFromSchema, withoutAbsentMembers, type FetchedBytes, type SafeFetchOptions } from '@gateway/http-kit';
import { createVideoForm } from './videos.openapi';
import {
  createVideoRequestSchema,
  DEFAULT_VIDEO_SIZE,
  VIDEO_SIZES,
  remixVideoRequestSchema,
  type CreateVideoRequestBody,
} from './videos.request.schema';

type Json = Record<string, unknown>;

export type UrlLoader = (url: string, options: SafeFetchOptions) => Promise<FetchedBytes>;

/** A multipart file part, as multer hands it over. */
export interface UploadedPart {
  fieldname: string;
  mimetype: string;
  buffer: Buffer;
}

const present = (v: unknown) => v !== undefined && v !== null && v !== '';

const unknownField = (key: string, at: string, allowed: string[]) =>
  invalid('unsupported_field', `Unknown or unsupported field "${key}"; accepted: ${allowed.join(', ')}.`, at);

/** A create body, JSON or the text fields of a form; empty and null members count as absent. */
export const createVideoBody = jsonRequestBody<CreateVideoRequestBody>(createVideoRequestSchema, {
  code: 'invalid_request',
  refuse: refusalsFromSchema(
    {
      missing_model: () => 'The "model" field is required.',
      invalid_prompt: () => '"prompt" must be a string.',
      invalid_size: (_at, value) =>
        `"size" ${JSON.stringify(value)} is not supported: this format renders 720p only; use ${VIDEO_SIZES.join(' or ')}.`,
    },
    unknownField,
  ),
  alternatives: { 'multipart/form-data': createVideoForm },
  prepare: (raw) => withoutAbsentMembers(raw ?? {}, (v) => !present(v)),
});

/** `POST /v1/videos/{id}/remix` takes only a new prompt (JSON, as the SDK sends it, or a form field). */
export const remixVideoBody = jsonRequestBody<{ prompt: string }>(remixVideoRequestSchema, {
  code: 'invalid_request',
  refuse: refusalsFromSchema({ missing_prompt: () => 'A remix needs a non-empty "prompt".' }, (key, at) =>
    invalid('unsupported_field', `Unknown or unsupported field "${key}"; a remix takes only "prompt".`, at),
  ),
  prepare: (raw) => raw ?? {},
});

export const VIDEOS_FIELD_NAMES: NonNullable<VideoRequestDraft['fieldNames']> = {
  prompt: 'prompt',
  durationSeconds: 'seconds',
  resolution: 'size',
  aspectRatio: 'size',
  firstFrame: 'input_reference',
};

export interface CreateVideoCommand {
  modelId: string;
  draft: VideoRequestDraft;
}

/** Where the first frame comes from: an uploaded part, or a URL in one of the accepted spellings. */
function referenceSource(body: CreateVideoRequestBody, files: UploadedPart[]): { part?: UploadedPart; url?: string } | undefined {
  const extraFile = files.find((f) => f.fieldname !== 'input_reference');
  if (extraFile)
    throw invalid(
      'unsupported_field',
      `Unexpected file field "${extraFile.fieldname}"; the only file field is input_reference.`,
      extraFile.fieldname,
    );
  const ref = body.input_reference;
  if (files.length > 1 || (files.length === 1 && present(ref))) {
    throw invalid('too_many_input_references', 'Send one input_reference: a file part, an https URL or a data URL.', 'input_reference');
  }
  if (files.length === 1) return { part: files[0] };
  if (!present(ref)) return undefined;
  if (typeof ref === 'string') return { url: ref };
  // The SDK's text part `input_reference[image_url]` arrives here as a nested object.
  if (typeof ref === 'object' && !Array.isArray(ref)) {
    const r = ref as Json;
    if (present(r.file_id))
      throw invalid(
        'unsupported_input_reference_file_id',
        'input_reference[file_id] is not supported (there is no Files API here); upload the image or give an https or data URL.',
        'input_reference.file_id',
      );
    if (typeof r.image_url === 'string' && Object.keys(r).length === 1) return { url: r.image_url };
  }
  throw invalid(
    'invalid_input_reference',
    'input_reference must be an image file part, an https URL, a data URL, or {image_url}.',
    'input_reference',
  );
}

async function firstFrame(source: { part?: UploadedPart; url?: string }, loadUrl: UrlLoader): Promise<VideoImage> {
  const param = source.url !== undefined ? 'input_reference.image_url' : 'input_reference';
  const fetched: FetchedBytes = source.part ? { data: source.part.buffer } : await loadUrl(source.url!, { param });
  const probed = probeClientImage(fetched.data, param);
  if (!probed) throw invalid('invalid_image_data', 'input_reference is not a PNG, JPEG or WebP image.', param);
  // A data URL declares its type; a lie there is the caller's mistake. HTTP content types are not trusted either way.
  if (source.url?.startsWith('data:') && fetched.contentType && fetched.contentType !== probed.mediaType) {
    throw invalid('image_mime_mismatch', `input_reference says ${fetched.contentType} but the bytes are ${probed.mediaType}.`, param);
  }
  return { mediaType: probed.mediaType, data: fetched.data, width: probed.width, height: probed.height };
}

/** `seconds` is a string on this wire; anything but whole digits goes to the limits table as-is, which refuses it. */
function seconds(value: unknown): number | undefined {
  if (!present(value)) return undefined;
  if (typeof value === 'string' && /^\d+$/.test(value.trim())) return Number(value);
  return value as number;
}

/**
 * A create body (JSON, or multipart text fields plus file parts) → the model id and the core's draft.
 * Format rules here: 720p sizes, one first frame matching `size`; durations via the limits table.
 */
export async function decodeCreateVideo(
  body: CreateVideoRequestBody,
  files: UploadedPart[],
  loadUrl: UrlLoader,
): Promise<CreateVideoCommand> {
  const source = referenceSource(body, files);
  const image = source ? await firstFrame(source, loadUrl) : undefined;
  const imageSize = image && `${image.width}x${image.height}`;
  // Without `size`, an image of an accepted size chooses it; otherwise landscape 720p.
  const size = body.size || (imageSize && (VIDEO_SIZES as readonly string[]).includes(imageSize) ? imageSize : DEFAULT_VIDEO_SIZE);
  if (image && imageSize !== size) {
    throw invalid(
      'input_reference_size_mismatch',
      `input_reference is ${imageSize} but size is ${size}; crop or resize the image to ${size} first.`,
      'input_reference',
    );
  }
  return {
    modelId: body.model,
    draft: {
      prompt: body.prompt,
      firstFrame: image,
      durationSeconds: seconds(body.seconds),
      resolution: '720p',
      // With a first frame the ratio is the frame's own (equal to `size`); adaptive keeps 2.5 models' frame rule satisfied.
      aspectRatio: image ? 'adaptive' : size === '1280x720' ? '16:9' : '9:16',
      fieldNames: VIDEOS_FIELD_NAMES,
    },
  };
}
