/**
 * What a succeeded task delivered, the numbers its charge settles on: the upstream's own statement first, then a
 * probe of the stored file for what the statement left out, then (nothing else known) what was requested.
 */
import type { VideoArtifact } from '../ports/video-model.port';
import type { ProbedVideo } from '../ports/video-probe.port';
import { RESOLUTIONS, resolveRatio, videoDimensions, type Resolution } from '../video-limits';
import type { TaskRequest } from '../video-task';

export interface DeliveredShape {
  width: number;
  height: number;
  durationSeconds: number;
  fps: number;
  /** where the numbers came from (logged; the usage row shows the numbers) */
  source: 'upstream' | 'probe' | 'requested';
}

const FIELDS = ['width', 'height', 'durationSeconds', 'fps'] as const;
const known = (v: number | undefined): v is number => typeof v === 'number' && Number.isFinite(v) && v > 0;

export async function deliveredShape(
  artifact: Pick<VideoArtifact, (typeof FIELDS)[number]>,
  request: TaskRequest,
  probe?: () => Promise<ProbedVideo>,
  onProbeError?: (e: Error) => void,
): Promise<DeliveredShape> {
  const asked = {
    ...videoDimensions(request.resolution, resolveRatio(request.aspectRatio, request.firstFrame)),
    durationSeconds: request.durationSeconds,
    fps: request.fps,
  };
  if (FIELDS.every((f) => known(artifact[f]))) return { ...(artifact as Omit<DeliveredShape, 'source'>), source: 'upstream' };
  let probed: ProbedVideo = {};
  if (probe) {
    try {
      probed = await probe();
    } catch (e) {
      onProbeError?.(e as Error);
    }
  }
  const measured = FIELDS.some((f) => !known(artifact[f]) && known(probed[f]));
  const pick = (f: (typeof FIELDS)[number]) => [artifact[f], probed[f]].find(known) ?? asked[f];
  return {
    width: pick('width'),
    height: pick('height'),
    durationSeconds: pick('durationSeconds'),
    fps: pick('fps'),
    source: measured ? 'probe' : 'requested',
  };
}

const SHORT_SIDE: Record<Resolution, number> = { '480p': 480, '720p': 720, '1080p': 1080, '4k': 2160 };

/**
 * The named resolution of a delivered size: the highest whose short side the video reaches, within 5 % (encoders
 * round 720 to 704 or 1080 to 1072); a video below 480p still counts as 480p, the lowest there is.
 */
export function resolutionOf(size: { width: number; height: number }): Resolution {
  const short = Math.min(size.width, size.height);
  const reached = RESOLUTIONS.filter((r) => short * 1.05 >= SHORT_SIDE[r]);
  return reached[reached.length - 1] ?? RESOLUTIONS[0];
}
