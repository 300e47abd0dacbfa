import { type ImageInput, type ImageRequest, unsupportedSetting, type Warning } from '@gateway/provider-kit';

/** dall-e models answer with URLs unless asked for b64_json, and know no output_format or background. */
export const isDallE = (model: string) => /^dall-e/.test(model);

const EXTENSION: Record<string, string> = { 'image/png': 'png', 'image/jpeg': 'jpg', 'image/webp': 'webp' };

/** The fields both routes share, by their OpenAI names (undefined ones are left out). */
function fields(
  req: ImageRequest,
  stream: boolean,
): { values: Record<string, string | number | boolean | undefined>; warnings: Warning[] } {
  const dalle = isDallE(req.model);
  const warnings: Warning[] = [];
  if (dalle && req.outputFormat !== 'png') warnings.push(unsupportedSetting('output_format', `${req.model} returns png only`));
  if (dalle && req.background && req.background !== 'auto')
    warnings.push(unsupportedSetting('background', `not supported by ${req.model}; ignored`));
  return {
    values: {
      model: req.model,
      prompt: req.prompt,
      n: req.n,
      size: `${req.width}x${req.height}`,
      quality: req.quality,
      background: dalle ? undefined : req.background,
      output_format: dalle ? undefined : req.outputFormat,
      output_compression: dalle ? undefined : req.outputCompression,
      response_format: dalle ? 'b64_json' : undefined,
      stream: stream || undefined,
      partial_images: stream ? req.partialImages : undefined,
    },
    warnings,
  };
}

/** A generation → the JSON body of POST /images/generations. */
export function convertToOpenAiImageGeneration(req: ImageRequest, stream = false): { body: Record<string, unknown>; warnings: Warning[] } {
  const { values, warnings } = fields(req, stream);
  const body: Record<string, unknown> = Object.fromEntries(Object.entries(values).filter(([, v]) => v !== undefined));
  if (req.style) body.style = req.style;
  return { body, warnings };
}

const blob = (img: ImageInput) => new Blob([img.data], { type: img.mediaType });

/** An edit → the multipart form of POST /images/edits: one `image` part, or repeated `image[]` parts, and the mask. */
export function convertToOpenAiImageEdit(req: ImageRequest, stream = false): { form: FormData; warnings: Warning[] } {
  const { values, warnings } = fields(req, stream);
  const form = new FormData();
  for (const [k, v] of Object.entries(values)) if (v !== undefined) form.append(k, String(v));
  const images = req.images ?? [];
  images.forEach((img, i) =>
    form.append(images.length > 1 ? 'image[]' : 'image', blob(img), `image-${i}.${EXTENSION[img.mediaType] ?? 'png'}`),
  );
  if (req.mask) form.append('mask', blob(req.mask), 'mask.png');
  if (req.style) warnings.push(unsupportedSetting('style', 'image edits take no style; ignored'));
  return { form, warnings };
}
