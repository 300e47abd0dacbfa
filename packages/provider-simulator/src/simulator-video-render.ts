import { rename, rm } from 'node:fs/promises';
import { runFfmpeg } from './ffmpeg';

export interface RenderSpec {
  width: number;
  height: number;
  durationSeconds: number;
  fps: number;
  audio: boolean;
  /** derived from the prompt: picks colours, motion and tone, so different prompts look different */
  seed: number;
}

const hex = (n: number) => `0x${(n & 0xffffff).toString(16).padStart(6, '0')}`;
const even = (n: number) => Math.max(2, Math.round(n / 2) * 2);

/** ffmpeg arguments for a real H.264 MP4: a coloured field with a moving box, and a sine tone when asked. */
export function renderArgs(s: RenderSpec, out: string): string[] {
  const bg = hex(s.seed);
  const fg = hex(~s.seed ^ (s.seed >>> 7));
  const speed = (1 + (s.seed % 7) / 3).toFixed(2);
  const box = `${even(s.width / 4)}x${even(s.height / 4)}`;
  const args = [
    '-hide_banner',
    '-loglevel',
    'error',
    '-y',
    '-f',
    'lavfi',
    '-i',
    `color=c=${bg}:s=${s.width}x${s.height}:r=${s.fps}:d=${s.durationSeconds}`,
    '-f',
    'lavfi',
    '-i',
    `color=c=${fg}:s=${box}:r=${s.fps}:d=${s.durationSeconds}`,
  ];
  if (s.audio) args.push('-f', 'lavfi', '-i', `sine=frequency=${220 + (s.seed % 660)}:sample_rate=44100:duration=${s.durationSeconds}`);
  args.push(
    '-filter_complex',
    `[0:v][1:v]overlay=x='(W-w)*abs(sin(t*${speed}))':y='(H-h)*abs(cos(t*${speed}*0.7))',format=yuv420p[v]`,
    '-map',
    '[v]',
    '-c:v',
    'libx264',
    '-preset',
    'ultrafast',
    '-r',
    String(s.fps),
    '-t',
    String(s.durationSeconds),
  );
  if (s.audio) args.push('-map', '2:a', '-c:a', 'aac', '-b:a', '64k');
  args.push('-movflags', '+faststart', '-f', 'mp4', out);
  return args;
}

/** Renders the MP4 and a JPEG still from it; both appear under their final names only when complete. */
export async function renderVideo(s: RenderSpec, mp4: string, jpeg: string, signal?: AbortSignal): Promise<void> {
  const tmpMp4 = `${mp4}.partial`;
  const tmpJpeg = `${jpeg}.partial`;
  try {
    await runFfmpeg(renderArgs(s, tmpMp4), { signal });
    const at = Math.min(1, s.durationSeconds / 2).toFixed(2);
    await runFfmpeg(
      ['-hide_banner', '-loglevel', 'error', '-y', '-ss', at, '-i', tmpMp4, '-frames:v', '1', '-q:v', '4', '-f', 'mjpeg', tmpJpeg],
      { signal },
    );
    await rename(tmpJpeg, jpeg);
    await rename(tmpMp4, mp4);
  } finally {
    await Promise.all([rm(tmpMp4, { force: true }), rm(tmpJpeg, { force: true })]);
  }
}
