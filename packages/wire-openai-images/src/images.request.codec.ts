import { invalid, type ImageCommand, type ImageFile } from '@gateway/core';
import { checkSize, loadImageRef, type ImageFetcher } from './image-inputs';
import type { EditRequestBody, GenerationRequestBody, ImageRef } from './images.request.schema';

type Fields = Record<string, unknown>;

/** What multer leaves in req.files. */
export interface UploadedFile {
  fieldname: string;
  buffer: Buffer;
}

const INTEGER_FIELDS = ['n', 'output_compression', 'partial_images'];

/** Multipart text parts are strings: give the numeric and boolean ones their JSON types, so one schema checks both bodies. */
export function coerceMultipartFields(body: Fields): Fields {
  const out: Fields = { ...body };
  for (const k of INTEGER_FIELDS) {
    const v = out[k];
    if (typeof v === 'string' && /^-?\d+$/.test(v.trim())) out[k] = Number(v);
  }
  if (out.stream === 'true' || out.stream === 'false') out.stream = out.stream === 'true';
  return out;
}

const opt = <T>(v: T | null | undefined): T | undefined => (v === null ? undefined : v);

/** The fields both operations share (already schema-checked). */
function commonFields(body: GenerationRequestBody | EditRequestBody): Omit<ImageCommand, 'operation'> {
  return {
    model: body.model,
    prompt: body.prompt,
    n: opt(body.n),
    size: opt(body.size),
    quality: opt(body.quality),
    background: opt(body.background),
    outputFormat: opt(body.output_format),
    outputCompression: opt(body.output_compression),
    stream: opt(body.stream),
    partialImages: opt(body.partial_images),
  };
}

export function decodeGenerationRequest(body: GenerationRequestBody): ImageCommand {
  return { operation: 'generate', ...commonFields(body), style: opt(body.style) };
}

/**
 * Edit inputs come as uploaded parts (`image`, repeated `image[]`, `mask`) or as text references
 * (`image`, `images`, `mask`: https URL, data URL, base64). Uploads come first, in part order.
 */
export async function decodeEditRequest(body: EditRequestBody, files: UploadedFile[], fetchImage?: ImageFetcher): Promise<ImageCommand> {
  const images: ImageFile[] = [];
  let mask: ImageFile | undefined;
  const isImage = (f: UploadedFile) => f.fieldname === 'image' || f.fieldname === 'image[]';
  const several = files.filter(isImage).length > 1;
  for (const f of files) {
    if (isImage(f)) {
      const param = several ? `image[${images.length}]` : 'image';
      images.push({ data: checkSize(f.buffer, param), param });
    } else if (f.fieldname === 'mask') {
      if (mask) throw invalid('too_many_masks', 'Send at most one "mask".', 'mask');
      mask = { data: checkSize(f.buffer, 'mask'), param: 'mask' };
    } else {
      throw invalid(
        'unknown_field',
        `Unknown file field "${f.fieldname.slice(0, 100)}"; use "image", "image[]" or "mask".`,
        f.fieldname.slice(0, 100),
      );
    }
  }
  const refs: Array<[ImageRef, string]> = [];
  for (const key of ['image', 'images'] as const) {
    const v = body[key];
    if (v === undefined || v === null) continue;
    if (Array.isArray(v)) v.forEach((r, i) => refs.push([r, `${key}[${i}]`]));
    else refs.push([v, key]);
  }
  for (const [ref, param] of refs) images.push(await loadImageRef(ref, param, fetchImage));
  if (body.mask !== undefined && body.mask !== null) {
    if (mask) throw invalid('too_many_masks', 'Send "mask" either as a file or as text, not both.', 'mask');
    mask = await loadImageRef(body.mask, 'mask', fetchImage);
  }
  return { operation: 'edit', ...commonFields(body), images, mask };
}
