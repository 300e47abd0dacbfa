/**
 * The VideoProbe adapter: the delivered bytes go to a scratch file (an MP4's index may sit at its end, so ffmpeg needs
 * to seek) and the simulator's ffmpeg helper reads their duration, size and frame rate. Used only for upstreams whose
 * answer does not state the delivered shape (core delivered-shape.ts).
 */
import { createWriteStream } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { ProbedVideo, VideoProbe } from '@gateway/core';
import { probeMedia } from '@gateway/provider-simulator';

export function ffmpegVideoProbe(scratchDir: string): VideoProbe {
  return {
    async probe(bytes: NodeJS.ReadableStream, signal?: AbortSignal): Promise<ProbedVideo> {
      await mkdir(scratchDir, { recursive: true });
      const dir = await mkdtemp(path.join(scratchDir, 'probe-'));
      const file = path.join(dir, 'video.mp4');
      try {
        await pipeline(bytes, createWriteStream(file), { signal });
        const info = await probeMedia(file);
        return { durationSeconds: info.durationSeconds, width: info.video?.width, height: info.video?.height, fps: info.video?.fps };
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    },
  };
}
