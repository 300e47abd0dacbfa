import { invalid, resolveRatio, type AspectRatio, type VideoImage, type VideoRequest } from '@gateway/provider-kit';
import type { RunwayCreateBody } from './runway-api';

/** Runway's pixel ratios per resolution and gateway ratio (gen4 lists these; 1080p for 16:9 and 9:16 only). */
const RATIOS: Record<string, Partial<Record<Exclude<AspectRatio, 'adaptive'>, [number, number]>>> = {
  '720p': { '16:9': [1280, 720], '9:16': [720, 1280], '4:3': [1104, 832], '3:4': [832, 1104], '1:1': [960, 960], '21:9': [1584, 672] },
  '1080p': { '16:9': [1920, 1080], '9:16': [1080, 1920] },
};

/** Veo models served through Runway render 4, 6 or 8 s; Runway's own (gen4) 5 or 10 s. */
export function runwayDurations(upstreamModel: string): number[] {
  return /^veo/i.test(upstreamModel) ? [4, 6, 8] : [5, 10];
}

/** Refuses, before anything is sent, what Runway cannot render. */
export function checkRunwayRequest(req: VideoRequest & { upstreamModel: string }): void {
  const up = "this model's upstream (Runway)";
  const table = RATIOS[req.resolution];
  if (!table)
    throw invalid(
      'resolution_not_supported',
      `Resolution ${req.resolution} is not available from ${up}; allowed: ${Object.keys(RATIOS).join(', ')}.`,
      'resolution',
    );
  if (req.aspectRatio !== 'adaptive' && !table[req.aspectRatio]) {
    throw invalid(
      'aspect_ratio_not_supported',
      `Aspect ratio ${req.aspectRatio} at ${req.resolution} is not available from ${up}; allowed: ${Object.keys(table).join(', ')} or adaptive.`,
      'aspect_ratio',
    );
  }
  const durations = runwayDurations(req.upstreamModel);
  if (!durations.includes(req.durationSeconds)) {
    throw invalid(
      'duration_not_supported',
      `A duration of ${req.durationSeconds} s is not available from ${up}; allowed: ${durations.join(', ')} s.`,
      'duration',
    );
  }
  if (req.referenceImages?.length)
    throw invalid('too_many_reference_images', `${up} takes no reference images; use a first frame.`, 'reference_images');
}

const dataUrl = (img: VideoImage) =>
  `data:${img.mediaType};base64,${Buffer.from(img.data.buffer, img.data.byteOffset, img.data.byteLength).toString('base64')}`;

/** The pixel size for a request: `adaptive` is the listed ratio nearest the first frame (landscape without one). */
export function runwayShape(req: VideoRequest): { width: number; height: number } {
  const table = RATIOS[req.resolution] ?? RATIOS['720p']!;
  let ratio = req.aspectRatio === 'adaptive' ? resolveRatio('adaptive', req.firstFrame) : req.aspectRatio;
  if (!table[ratio]) ratio = req.firstFrame && req.firstFrame.height > req.firstFrame.width ? '9:16' : '16:9';
  const [width, height] = table[ratio]!;
  return { width, height };
}

/** Image to video when there is a first frame (and a last one as `position: last`), else text to video. */
export function convertToRunwayTask(req: VideoRequest & { upstreamModel: string }): { path: string; body: RunwayCreateBody } {
  const { width, height } = runwayShape(req);
  const common = {
    model: req.upstreamModel,
    ...(req.prompt?.trim() ? { promptText: req.prompt } : {}),
    ratio: `${width}:${height}`,
    duration: req.durationSeconds,
  };
  if (!req.firstFrame) return { path: '/v1/text_to_video', body: common };
  const promptImage = req.lastFrame
    ? [
        { uri: dataUrl(req.firstFrame), position: 'first' as const },
        { uri: dataUrl(req.lastFrame), position: 'last' as const },
      ]
    : dataUrl(req.firstFrame);
  return { path: '/v1/image_to_video', body: { ...common, promptImage } };
}
