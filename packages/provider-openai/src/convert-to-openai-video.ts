import { invalid, type VideoRequest } from '@gateway/provider-kit';

/** What Sora renders, beyond the gateway's own limits table (docs/providers/sora.md). */
export const SORA_LIMITS = Object.freeze({
  seconds: [4, 8, 12] as readonly number[],
  /** 720p on every model; the larger 1792x1024 sizes only on the pro models */
  sizes: { '720p': ['1280x720', '720x1280'], '1080p': ['1792x1024', '1024x1792'] } as Readonly<Record<string, readonly [string, string]>>,
});

const isPro = (model: string) => /pro/.test(model);

/** The Sora size for a request: landscape or portrait by ratio (adaptive: by the first frame's shape). */
export function soraSize(req: VideoRequest & { upstreamModel: string }): string {
  const pair = SORA_LIMITS.sizes[req.resolution];
  if (!pair) throw new Error(`no Sora size for ${req.resolution}`);
  const portrait =
    req.aspectRatio === '9:16' || (req.aspectRatio === 'adaptive' && !!req.firstFrame && req.firstFrame.height > req.firstFrame.width);
  return pair[portrait ? 1 : 0];
}

/** Refuses, before anything is sent, what Sora cannot render. */
export function checkSoraRequest(req: VideoRequest & { upstreamModel: string }): void {
  if (req.referenceImages?.length)
    throw invalid(
      'reference_images_not_supported',
      "This model's upstream (Sora) takes no reference images; send one first frame instead.",
      'reference_images',
    );
  if (req.lastFrame) throw invalid('last_frame_not_supported', "This model's upstream (Sora) takes no last frame.", 'last_frame');
  if (!SORA_LIMITS.seconds.includes(req.durationSeconds)) {
    throw invalid(
      'duration_not_supported',
      `A duration of ${req.durationSeconds} s is not available from this model's upstream (Sora); allowed: ${SORA_LIMITS.seconds.join(', ')} s.`,
      'duration',
    );
  }
  const allowed = ['720p', ...(isPro(req.upstreamModel) ? ['1080p'] : [])];
  if (!allowed.includes(req.resolution)) {
    throw invalid(
      'resolution_not_supported',
      `Resolution ${req.resolution} is not available from this model's upstream (Sora ${req.upstreamModel}); allowed: ${allowed.join(', ')}.`,
      'resolution',
    );
  }
  if (!['adaptive', '16:9', '9:16'].includes(req.aspectRatio)) {
    throw invalid(
      'aspect_ratio_not_supported',
      `Aspect ratio ${req.aspectRatio} is not available from this model's upstream (Sora); allowed: 16:9, 9:16 or adaptive.`,
      'aspect_ratio',
    );
  }
  const f = req.firstFrame;
  const size = soraSize(req);
  if (f && `${f.width}x${f.height}` !== size) {
    throw invalid(
      'first_frame_size_mismatch',
      `This model's upstream (Sora) needs the first frame at exactly the video size ${size}; got ${f.width}x${f.height}.`,
      'first_frame',
    );
  }
}

const EXTENSION: Record<string, string> = { 'image/png': 'png', 'image/jpeg': 'jpg', 'image/webp': 'webp' };

/** A canonical request → the multipart create form (as the openai SDK sends it: always multipart). */
export function convertToOpenAiVideo(req: VideoRequest & { upstreamModel: string }): FormData {
  const form = new FormData();
  form.append('model', req.upstreamModel);
  if (req.prompt) form.append('prompt', req.prompt);
  form.append('seconds', String(req.durationSeconds));
  form.append('size', soraSize(req));
  const f = req.firstFrame;
  if (f) form.append('input_reference', new Blob([f.data], { type: f.mediaType }), `first_frame.${EXTENSION[f.mediaType] ?? 'png'}`);
  return form;
}
