import {
  generationFailed,
  missingVideo,
  RESOLUTIONS,
  resolveRatio,
  videoDimensions,
  ASPECT_RATIOS,
  type AspectRatio,
  type Resolution,
  type VideoArtifact,
  type VideoStatus,
} from '@gateway/provider-kit';
import type { ArkTask } from './ark-api';

/** Opens the result URL as a stream (the adapter's download, never buffered whole). */
export type OpenUrl = (url: string) => Promise<NodeJS.ReadableStream>;

/**
 * The delivered shape, as far as the task object states it (resolution with a concrete ratio, duration or frames,
 * fps). What it leaves out stays out: the worker then measures the stored file rather than billing a guess.
 */
function shapeOf(t: ArkTask): Pick<VideoArtifact, 'width' | 'height' | 'durationSeconds' | 'fps'> {
  const res = (RESOLUTIONS as readonly string[]).includes(t.resolution ?? '') ? (t.resolution as Resolution) : undefined;
  const ratio =
    (ASPECT_RATIOS as readonly string[]).includes(t.ratio ?? '') && t.ratio !== 'adaptive' ? (t.ratio as AspectRatio) : undefined;
  const fps = t.framespersecond && t.framespersecond > 0 ? t.framespersecond : undefined;
  const duration = t.duration && t.duration > 0 ? t.duration : t.frames && t.frames > 0 && fps ? t.frames / fps : undefined;
  return { ...(res && ratio ? videoDimensions(res, resolveRatio(ratio)) : {}), durationSeconds: duration, fps };
}

/**
 * A task object → the port's status. `cancelled` and `expired` are terminal upstream, so they end the
 * gateway task as failed with that code: a task is never left "running" on a task the upstream dropped.
 */
export function mapArkTask(t: ArkTask, open: OpenUrl): VideoStatus {
  const err = t.error ?? t.failure_reason ?? undefined;
  switch (t.status) {
    case 'queued':
      return { state: 'pending', running: false };
    case 'running':
      return { state: 'pending', running: true };
    case 'succeeded': {
      const url = t.content?.video_url;
      if (!url) return missingVideo('a video URL');
      return { state: 'succeeded', artifact: { ...shapeOf(t), open: () => open(url) } };
    }
    case 'failed':
      return generationFailed(err?.code, err?.message);
    case 'cancelled':
      return { state: 'failed', code: err?.code || 'cancelled', message: err?.message || 'The upstream task was cancelled.' };
    case 'expired':
      return { state: 'failed', code: err?.code || 'expired', message: err?.message || 'The upstream task expired before it finished.' };
    default:
      // An unknown word is read as still working: the gateway's own expiry ends it if it never settles.
      return { state: 'pending', running: true };
  }
}
