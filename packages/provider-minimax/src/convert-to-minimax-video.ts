import { invalid, type VideoImage, type VideoRequest } from '@gateway/provider-kit';
import type { MiniMaxCreateBody } from './minimax-api';

/** What Hailuo renders, beyond the gateway's own limits table (docs/providers/minimax.md). */
export const MINIMAX_LIMITS = Object.freeze({
  /** 720p is sent as 768P (1366×768), 1080p as 1080P */
  resolutions: ['720p', '1080p'] as readonly string[],
  durations: [6, 10] as readonly number[],
  /** 10 s renders at 768P only */
  maxSeconds1080p: 6,
  /** text-only renders landscape; with a first frame the video follows the image */
  ratios: ['16:9'] as readonly string[],
});

/** Refuses, before anything is sent, what MiniMax cannot render. */
export function checkMiniMaxRequest(req: VideoRequest): void {
  const l = MINIMAX_LIMITS;
  const up = "this model's upstream (MiniMax)";
  if (!l.resolutions.includes(req.resolution)) {
    throw invalid(
      'resolution_not_supported',
      `Resolution ${req.resolution} is not available from ${up}; allowed: ${l.resolutions.join(', ')}.`,
      'resolution',
    );
  }
  if (!l.durations.includes(req.durationSeconds)) {
    throw invalid(
      'duration_not_supported',
      `A duration of ${req.durationSeconds} s is not available from ${up}; allowed: ${l.durations.join(', ')} s.`,
      'duration',
    );
  }
  if (req.resolution === '1080p' && req.durationSeconds > l.maxSeconds1080p) {
    throw invalid('duration_not_supported', `At 1080p ${up} renders at most ${l.maxSeconds1080p} s.`, 'duration');
  }
  if (req.aspectRatio !== 'adaptive' && !l.ratios.includes(req.aspectRatio)) {
    throw invalid(
      'aspect_ratio_not_supported',
      `Aspect ratio ${req.aspectRatio} is not available from ${up}; allowed: 16:9 or adaptive.`,
      'aspect_ratio',
    );
  }
  if (req.referenceImages?.length) {
    throw invalid('too_many_reference_images', `${up} takes no reference images; use a first frame.`, 'reference_images');
  }
}

const dataUrl = (img: VideoImage) =>
  `data:${img.mediaType};base64,${Buffer.from(img.data.buffer, img.data.byteOffset, img.data.byteLength).toString('base64')}`;

export function convertToMiniMaxVideo(req: VideoRequest & { upstreamModel: string }): MiniMaxCreateBody {
  return {
    model: req.upstreamModel,
    ...(req.prompt?.trim() ? { prompt: req.prompt } : {}),
    ...(req.firstFrame ? { first_frame_image: dataUrl(req.firstFrame) } : {}),
    ...(req.lastFrame ? { last_frame_image: dataUrl(req.lastFrame) } : {}),
    duration: req.durationSeconds,
    resolution: req.resolution === '1080p' ? '1080P' : '768P',
  };
}
