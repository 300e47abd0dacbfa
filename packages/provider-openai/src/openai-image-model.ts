import {
  GatewayError,
  probeImage,
  type CallContext,
  type GeneratedImage,
  type ImageModelPort,
  type ImageRequest,
  type ImageResult,
  type ImageStreamPart,
  type ImageUsage,
  type Warning,
} from '@gateway/provider-kit';
import { jsonEvents, malformedUpstream, upstreamContentPolicy, type UpstreamClient, type UpstreamResponse } from '@gateway/provider-kit';
import {
  openAiImagesResponseSchema,
  openAiImageStreamEventSchema,
  type OpenAiImagesResponse,
  type OpenAiImageUsage,
} from './openai-image-api';
import { convertToOpenAiImageEdit, convertToOpenAiImageGeneration } from './convert-to-openai-image';
import { OPENAI_POLICY_CODES } from './openai-api';

/** Linked images are small files; anything past this is not an image answer. */
const MAX_LINKED_IMAGE_BYTES = 64 * 1024 * 1024;

/** An `error` object inside the stream: a refusal keeps its meaning, anything else is the upstream's failure. */
function streamError(e: { message?: string; code?: string }): GatewayError {
  if (e.code && OPENAI_POLICY_CODES.has(e.code)) {
    return upstreamContentPolicy(e.message, e.code);
  }
  return new GatewayError('upstream_error', e.message || 'The upstream image stream failed.', {
    code: 'upstream_stream_error',
    upstreamCode: e.code,
  });
}

function usageOf(u: OpenAiImageUsage | undefined): ImageUsage | undefined {
  if (!u) return undefined;
  const image = u.input_tokens_details?.image_tokens ?? 0;
  return {
    inputTextTokens: u.input_tokens_details?.text_tokens ?? Math.max(0, (u.input_tokens ?? 0) - image),
    inputImageTokens: image,
    outputTokens: u.output_tokens ?? 0,
  };
}

function decoded(b64: string, fallbackType: string, revisedPrompt?: string): GeneratedImage {
  const data = Buffer.from(b64, 'base64');
  return { mediaType: probeImage(data)?.mediaType ?? fallbackType, data, ...(revisedPrompt ? { revisedPrompt } : {}) };
}

/**
 * OpenAI images behind the image port: generations (JSON) and edits (multipart), non-streaming and
 * streaming (partial images over SSE). URLs in an answer (dall-e) are fetched without the key when they
 * are on another host.
 */
export class OpenAiImageModel implements ImageModelPort {
  constructor(private readonly http: UpstreamClient) {}

  private send(req: ImageRequest, stream: boolean, signal: AbortSignal): { res: Promise<UpstreamResponse>; warnings: Warning[] } {
    if (req.images?.length) {
      const { form, warnings } = convertToOpenAiImageEdit(req, stream);
      return { res: this.http.request({ method: 'POST', path: '/images/edits', form, signal }), warnings };
    }
    const { body, warnings } = convertToOpenAiImageGeneration(req, stream);
    return { res: this.http.request({ method: 'POST', path: '/images/generations', json: body, signal }), warnings };
  }

  async generate(req: ImageRequest, ctx: CallContext): Promise<ImageResult> {
    const { res, warnings } = this.send(req, false, ctx.signal);
    const answer = await (await res).json(openAiImagesResponseSchema, 'an images answer');
    const type = `image/${answer.output_format ?? req.outputFormat}`;
    const images = await Promise.all(
      (answer.data ?? []).map(async (d) => {
        if (d.b64_json) return decoded(d.b64_json, type, d.revised_prompt);
        if (d.url)
          return decoded(
            (await (await this.http.download(d.url, { signal: ctx.signal })).bytes(MAX_LINKED_IMAGE_BYTES, 'an image')).toString('base64'),
            type,
            d.revised_prompt,
          );
        throw malformedUpstream('an image entry with neither b64_json nor url');
      }),
    );
    if (!images.length) throw malformedUpstream('an images answer without images');
    return { images, warnings, usage: usageOf(answer.usage), used: usedSettings(answer) };
  }

  async *stream(req: ImageRequest, ctx: CallContext): AsyncGenerator<ImageStreamPart> {
    const { res: pending, warnings } = this.send(req, true, ctx.signal);
    const res = await pending;
    let usage: ImageUsage | undefined;
    let done = false;
    try {
      for await (const { data: e } of jsonEvents(res.events(), openAiImageStreamEventSchema, 'a stream event')) {
        if (e.error) throw streamError(e.error);
        const type = `image/${e.output_format ?? req.outputFormat}`;
        if (e.type?.endsWith('.partial_image') && e.b64_json) {
          yield { type: 'partial-image', partialIndex: e.partial_image_index ?? 0, image: decoded(e.b64_json, type) };
        } else if (e.type?.endsWith('.completed') && e.b64_json) {
          usage = usageOf(e.usage);
          done = true;
          yield { type: 'image', image: decoded(e.b64_json, type) };
        }
      }
    } finally {
      res.close();
    }
    if (!done) throw malformedUpstream('an image stream that ended before the image');
    yield { type: 'finish', warnings, usage };
  }
}

/** What gpt-image models report they used (dall-e reports nothing). */
function usedSettings(answer: OpenAiImagesResponse): ImageResult['used'] {
  const background = answer.background === 'transparent' || answer.background === 'opaque' ? answer.background : undefined;
  const quality = answer.quality && answer.quality !== 'auto' ? answer.quality : undefined;
  return background || quality ? { ...(background ? { background } : {}), ...(quality ? { quality } : {}) } : undefined;
}
