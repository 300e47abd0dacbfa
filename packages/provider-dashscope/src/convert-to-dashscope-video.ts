import { invalid, resolveRatio, type VideoImage, type VideoRequest } from '@gateway/provider-kit';
import type { DashScopeCreateBody } from './dashscope-api';

/** Text-to-video `size` per resolution and ratio, as Wan lists them (width*height). */
const SIZES: Record<string, Record<string, [number, number]>> = {
  '480p': { '16:9': [832, 480], '9:16': [480, 832], '1:1': [624, 624] },
  '720p': { '16:9': [1280, 720], '9:16': [720, 1280], '1:1': [960, 960], '4:3': [1088, 832], '3:4': [832, 1088] },
  '1080p': { '16:9': [1920, 1080], '9:16': [1080, 1920], '1:1': [1440, 1440], '4:3': [1632, 1248], '3:4': [1248, 1632] },
};

/** What Wan renders, beyond the gateway's own limits table (docs/providers/dashscope.md). */
export const DASHSCOPE_LIMITS = Object.freeze({
  resolutions: Object.keys(SIZES) as readonly string[],
  durations: [5, 10] as readonly number[],
});

/** Refuses, before anything is sent, what Wan cannot render. */
export function checkDashScopeRequest(req: VideoRequest): void {
  const up = "this model's upstream (DashScope Wan)";
  const sizes = SIZES[req.resolution];
  if (!sizes) {
    throw invalid(
      'resolution_not_supported',
      `Resolution ${req.resolution} is not available from ${up}; allowed: ${DASHSCOPE_LIMITS.resolutions.join(', ')}.`,
      'resolution',
    );
  }
  if (!DASHSCOPE_LIMITS.durations.includes(req.durationSeconds)) {
    throw invalid(
      'duration_not_supported',
      `A duration of ${req.durationSeconds} s is not available from ${up}; allowed: ${DASHSCOPE_LIMITS.durations.join(', ')} s.`,
      'duration',
    );
  }
  if (!req.firstFrame && req.aspectRatio !== 'adaptive' && !sizes[req.aspectRatio]) {
    throw invalid(
      'aspect_ratio_not_supported',
      `Aspect ratio ${req.aspectRatio} at ${req.resolution} is not available from ${up}; allowed: ${Object.keys(sizes).join(', ')} or adaptive.`,
      'aspect_ratio',
    );
  }
  if (req.lastFrame)
    throw invalid('last_frame_not_supported', `${up} takes a first frame only (no last frame) on this route.`, 'last_frame');
  if (req.referenceImages?.length)
    throw invalid('too_many_reference_images', `${up} takes no reference images; use a first frame.`, 'reference_images');
}

const dataUrl = (img: VideoImage) =>
  `data:${img.mediaType};base64,${Buffer.from(img.data.buffer, img.data.byteOffset, img.data.byteLength).toString('base64')}`;

/** The pixel size to ask for: the size table for text-to-video, the frame's ratio at that resolution for image-to-video. */
export function dashScopeShape(req: VideoRequest): { width: number; height: number } {
  const sizes = SIZES[req.resolution] ?? SIZES['720p']!;
  const ratio = req.firstFrame ? resolveRatio('adaptive', req.firstFrame) : req.aspectRatio === 'adaptive' ? '16:9' : req.aspectRatio;
  const [width, height] = sizes[ratio] ?? sizes['16:9']!;
  return { width, height };
}

export function convertToDashScopeVideo(req: VideoRequest & { upstreamModel: string }): DashScopeCreateBody {
  const { width, height } = dashScopeShape(req);
  return {
    model: req.upstreamModel,
    input: { ...(req.prompt?.trim() ? { prompt: req.prompt } : {}), ...(req.firstFrame ? { img_url: dataUrl(req.firstFrame) } : {}) },
    parameters: {
      ...(req.firstFrame ? { resolution: req.resolution.toUpperCase() } : { size: `${width}*${height}` }),
      duration: req.durationSeconds,
      // The gateway serves the video as its own; a provider watermark is an operator choice, off by default.
      watermark: false,
    },
  };
}
