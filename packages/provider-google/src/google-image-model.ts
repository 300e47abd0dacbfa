import {
  GatewayError,
  probeImage,
  type CallContext,
  type GeneratedImage,
  type ImageModelPort,
  type ImageRequest,
  type ImageResult,
  type ImageUsage,
  unsupportedSetting,
} from '@gateway/provider-kit';
import { upstreamContentPolicy, type UpstreamClient } from '@gateway/provider-kit';
import { googleResponseSchema, type GoogleResponse } from './google-api';
import { modelPath } from './google-chat-model';
import { convertToGoogleImage } from './convert-to-google-image';

const BLOCKED = new Set(['SAFETY', 'IMAGE_SAFETY', 'PROHIBITED_CONTENT', 'BLOCKLIST', 'SPII', 'RECITATION', 'IMAGE_PROHIBITED_CONTENT']);

/** The first inline image of a response, or why there is none. */
function readImage(res: GoogleResponse): { image?: GeneratedImage; refusal?: string; text: string } {
  const candidate = res.candidates?.[0];
  const parts = candidate?.content?.parts ?? [];
  const text = parts
    .map((p) => (p.thought ? '' : (p.text ?? '')))
    .join('')
    .trim();
  const inline = parts.find((p) => p.inlineData?.data && !p.thought)?.inlineData;
  if (inline?.data) {
    const data = Buffer.from(inline.data, 'base64');
    const mediaType = probeImage(data)?.mediaType ?? inline.mimeType ?? 'image/png';
    return { image: { mediaType, data, ...(text ? { revisedPrompt: text } : {}) }, text };
  }
  const blocked =
    res.promptFeedback?.blockReason ??
    (candidate?.finishReason && BLOCKED.has(candidate.finishReason) ? candidate.finishReason : undefined);
  return { refusal: blocked, text };
}

/**
 * Gemini image output (e.g. gemini-2.5-flash-image) behind the image port: generateContent with
 * responseModalities IMAGE, the picture read from `inlineData`. Edits send the input images as inline
 * parts with the instruction. n images are n calls, made in parallel.
 */
export class GoogleImageModel implements ImageModelPort {
  constructor(
    private readonly transport: UpstreamClient,
    private readonly apiVersion: string,
  ) {}

  async generate(req: ImageRequest, ctx: CallContext): Promise<ImageResult> {
    const { body, warnings } = convertToGoogleImage(req);
    const path = `/${this.apiVersion}/${modelPath(req.model)}:generateContent`;
    const answers = await Promise.all(
      Array.from({ length: req.n }, async () => {
        const res = await this.transport.request({ method: 'POST', path: path, json: body, signal: ctx.signal });
        return res.json(googleResponseSchema, 'a generateContent answer');
      }),
    );
    const usage: ImageUsage = { inputTextTokens: 0, inputImageTokens: 0, outputTokens: 0 };
    const images: GeneratedImage[] = [];
    for (const a of answers) {
      usage.inputTextTokens += a.usageMetadata?.promptTokenCount ?? 0;
      usage.outputTokens += a.usageMetadata?.candidatesTokenCount ?? 0;
      const { image, refusal, text } = readImage(a);
      if (!image) {
        if (refusal) throw upstreamContentPolicy(`The upstream (Gemini) refused to draw this (${refusal}).`, refusal);
        throw new GatewayError(
          'upstream_error',
          `The upstream (Gemini) answered without an image${text ? `: ${text.slice(0, 300)}` : '.'}`,
          { code: 'upstream_no_image' },
        );
      }
      images.push(image);
    }
    const wanted = `image/${req.outputFormat}`;
    if (images.some((i) => i.mediaType !== wanted))
      warnings.push(unsupportedSetting('output_format', `the upstream (Gemini) returned ${images[0]?.mediaType}`));
    const size = images[0] && probeImage(images[0].data);
    if (size && (size.width !== req.width || size.height !== req.height)) {
      warnings.push(unsupportedSetting('size', `the upstream (Gemini) drew ${size.width}x${size.height} (nearest aspect ratio)`));
    }
    return { images, warnings, usage };
  }
}
