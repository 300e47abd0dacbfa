/** What a probe measured of a video file; a field it could not read is absent. */
export interface ProbedVideo {
  width?: number;
  height?: number;
  durationSeconds?: number;
  fps?: number;
}

/**
 * Measures a delivered video (the server's adapter runs ffmpeg over the stored bytes): used when the upstream's
 * answer did not state the delivered shape, so the charge settles on what was delivered, not on what was asked.
 */
export interface VideoProbe {
  probe(bytes: NodeJS.ReadableStream, signal?: AbortSignal): Promise<ProbedVideo>;
}
