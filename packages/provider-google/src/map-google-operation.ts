import { generationFailed, type VideoStatus } from '@gateway/provider-kit';
import type { VeoOperation } from './google-video-api';

/** Opens the sample (its URI, or the bytes inlined in the operation) as a stream. */
export type OpenSample = (sample: { uri?: string; encodedVideo?: string }) => Promise<NodeJS.ReadableStream>;

/**
 * An operation → the port's status. Veo reports no queue position, so a pending operation counts as
 * running. A finished operation with no sample but filtered media is the RAI filter's refusal.
 */
export function mapGoogleOperation(op: VeoOperation, open: OpenSample): VideoStatus {
  if (!op.done) return { state: 'pending', running: true };
  if (op.error) {
    return generationFailed(op.error.status || (op.error.code !== undefined ? String(op.error.code) : undefined), op.error.message);
  }
  const r = op.response?.generateVideoResponse;
  const video = r?.generatedSamples?.find((s) => s.video?.uri || s.video?.encodedVideo)?.video;
  if (!video) {
    if (r?.raiMediaFilteredCount) {
      const why =
        r.raiMediaFilteredReasons?.filter(Boolean).join(' ') || 'The generated video was filtered by the upstream safety filters.';
      return { state: 'failed', code: 'content_filtered', message: why };
    }
    return { state: 'failed', code: 'upstream_missing_video', message: 'The upstream finished the operation without a video.' };
  }
  // The operation states no size, length or frame rate of the sample: the artifact leaves them out and the worker
  // measures the stored file, so a shorter or smaller render is never billed as requested.
  return { state: 'succeeded', artifact: { open: () => open(video) } };
}
