import type { GeneratedImage, ImageResult, ImageUsage, PreparedImageCall } from '@gateway/core';
import { usedSettings } from './images.used-settings';

export type ResponseFormat = 'url' | 'b64_json';

/** Stores an image and gives back the URL it can be fetched from. */
export type SaveImage = (image: GeneratedImage) => Promise<string>;

export function encodeUsage(u: ImageUsage) {
  const input = u.inputTextTokens + u.inputImageTokens;
  return {
    input_tokens: input,
    output_tokens: u.outputTokens,
    total_tokens: input + u.outputTokens,
    input_tokens_details: { image_tokens: u.inputImageTokens, text_tokens: u.inputTextTokens },
  };
}

/** `{created, data:[{url | b64_json, revised_prompt}], background?, output_format, quality?, size?, usage?}`, as used (images.used-settings.ts). */
export async function encodeImagesResponse(
  created: number,
  call: PreparedImageCall,
  result: ImageResult,
  format: ResponseFormat,
  save: SaveImage,
) {
  const data = [];
  for (const image of result.images) {
    const revised_prompt = image.revisedPrompt ?? call.request.prompt;
    data.push(
      format === 'url'
        ? { url: await save(image), revised_prompt }
        : { b64_json: Buffer.from(image.data).toString('base64'), revised_prompt },
    );
  }
  const used = usedSettings(call, result.images[0], result.used);
  return {
    created,
    data,
    ...(used.concrete.background ? { background: used.concrete.background } : {}),
    output_format: call.settings.outputFormat,
    ...(used.concrete.quality ? { quality: used.concrete.quality } : {}),
    ...(used.concrete.size ? { size: used.concrete.size } : {}),
    ...(result.usage ? { usage: encodeUsage(result.usage) } : {}),
  };
}
