import { spawn } from 'node:child_process';
import { accessSync, chmodSync, constants } from 'node:fs';
import type installer from '@ffmpeg-installer/ffmpeg';

let binary: string | undefined;

/**
 * The ffmpeg binary that @ffmpeg-installer/ffmpeg ships (made executable if an install lost the bit). The package is
 * loaded by the first render or probe, not by every gateway that imports the simulator (bench/results/memory.md).
 */
export function ffmpegPath(): string {
  if (binary === undefined) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- deliberately lazy: see above
    const { path } = require('@ffmpeg-installer/ffmpeg') as typeof installer;
    try {
      accessSync(path, constants.X_OK);
    } catch {
      chmodSync(path, 0o755);
    }
    binary = path;
  }
  return binary;
}

/** Runs ffmpeg; resolves with its stderr (where it reports), rejects on a non-zero exit unless allowed. */
export function runFfmpeg(args: string[], opts: { signal?: AbortSignal; allowFailure?: boolean } = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(ffmpegPath(), args, { stdio: ['ignore', 'ignore', 'pipe'], signal: opts.signal });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => {
      if (stderr.length < 64_000) stderr += d.toString();
    });
    child.on('error', reject);
    child.on('close', (code) => {
      if (code === 0 || opts.allowFailure) resolve(stderr);
      else reject(new Error(`ffmpeg exited with ${code}: ${stderr.trim().split('\n').slice(-3).join(' | ')}`));
    });
  });
}

export interface MediaInfo {
  durationSeconds: number;
  video?: { codec: string; width: number; height: number; fps: number };
  audio?: { codec: string };
}

/** What `ffmpeg -i` says about a file (ffmpeg's own probe; there is no ffprobe in the package). */
export async function probeMedia(file: string): Promise<MediaInfo> {
  const out = await runFfmpeg(['-hide_banner', '-i', file], { allowFailure: true });
  const d = /Duration: (\d+):(\d+):(\d+(?:\.\d+)?)/.exec(out);
  if (!d) throw new Error(`not a media file: ${out.trim().split('\n').pop()}`);
  const info: MediaInfo = { durationSeconds: Number(d[1]) * 3600 + Number(d[2]) * 60 + Number(d[3]) };
  const line = /Stream #[^\n]*Video: [^\n]*/.exec(out)?.[0];
  const v = line && /Video: (\w+)[^\n]*?, (\d{2,5})x(\d{2,5})/.exec(line);
  if (v) info.video = { codec: v[1]!, width: Number(v[2]), height: Number(v[3]), fps: Number(/, ([\d.]+) fps/.exec(line!)?.[1] ?? 0) };
  const a = /Stream #[^\n]*Audio: (\w+)/.exec(out);
  if (a) info.audio = { codec: a[1]! };
  return info;
}
