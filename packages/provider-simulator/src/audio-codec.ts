import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { ffmpegPath } from './ffmpeg';

export type EncodedFormat = 'mp3' | 'opus' | 'aac' | 'flac';

const ENCODERS: Record<EncodedFormat, string[]> = {
  mp3: ['-c:a', 'libmp3lame', '-b:a', '64k', '-f', 'mp3'],
  opus: ['-c:a', 'libopus', '-b:a', '32k', '-f', 'ogg'],
  // ADTS, as OpenAI sends aac: it has no tags, so an aac file is the one format that does not carry its text
  aac: ['-c:a', 'aac', '-b:a', '64k', '-f', 'adts'],
  flac: ['-c:a', 'flac', '-f', 'flac'],
};

/**
 * A streamed FLAC cannot seek back to write its length: the STREAMINFO total-samples field (36 bits at byte 21.4 of
 * the file) is filled in from the PCM, so players and ffprobe know the duration.
 */
function patchFlacLength(head: Buffer, samples: number): void {
  if (head.length < 42 || head.toString('ascii', 0, 4) !== 'fLaC') return;
  head[21] = (head[21]! & 0xf0) | (Math.floor(samples / 2 ** 32) & 0x0f);
  head.writeUInt32BE(samples % 2 ** 32, 22);
}

/**
 * 24 kHz 16-bit mono PCM encoded by ffmpeg, with `comment` as a tag, read as ffmpeg writes it. Leaving the
 * iteration early (or the signal) ends ffmpeg.
 */
export async function* encodePcm(pcm: Buffer, format: EncodedFormat, comment: string, signal?: AbortSignal): AsyncGenerator<Buffer> {
  const args = ['-hide_banner', '-loglevel', 'error', '-f', 's16le', '-ar', '24000', '-ac', '1', '-i', 'pipe:0'];
  args.push('-metadata', `comment=${comment}`, ...ENCODERS[format], 'pipe:1');
  const child = spawn(ffmpegPath(), args, { stdio: ['pipe', 'pipe', 'pipe'], signal });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => void (stderr.length < 4000 && (stderr += d.toString())));
  const exited = new Promise<number | null>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', resolve);
  });
  exited.catch(() => undefined);
  // ffmpeg may stop reading early when it fails; its exit code says why, not the broken pipe
  child.stdin.on('error', () => undefined);
  child.stdin.end(pcm);
  let head: Buffer | undefined = format === 'flac' ? Buffer.alloc(0) : undefined;
  try {
    for await (const c of child.stdout as AsyncIterable<Buffer>) {
      if (head === undefined) {
        yield c;
        continue;
      }
      head = Buffer.concat([head, c]);
      if (head.length < 42) continue;
      patchFlacLength(head, pcm.length / 2);
      yield head;
      head = undefined;
    }
    if (head?.length) yield head;
    const code = await exited;
    if (code !== 0) throw new Error(`ffmpeg exited with ${code}: ${stderr.trim().split('\n').slice(-2).join(' | ')}`);
  } finally {
    if (child.exitCode === null) child.kill('SIGKILL');
  }
}

export interface DecodedAudio {
  durationSeconds: number;
  /** the file's `comment` tag, wherever the container keeps it */
  comment?: string;
}

/** MP4/M4A keep their index (moov) where they like, often at the end: ffmpeg can only read those from a file. */
const isIsoMedia = (b: Uint8Array) => b.length > 12 && Buffer.from(b.subarray(4, 8)).toString('ascii') === 'ftyp';

/**
 * Decodes any audio ffmpeg knows to 8 kHz mono to measure its exact length (a header's duration is an estimate
 * for ADTS and VBR MP3), and reads its comment tag. Undefined when the bytes are not audio. MP4 goes through a
 * temporary file that is removed whatever happens.
 */
export async function decodeAudio(data: Uint8Array, signal?: AbortSignal): Promise<DecodedAudio | undefined> {
  const dir = isIsoMedia(data) ? await mkdtemp(path.join(os.tmpdir(), 'sim-audio-')) : undefined;
  try {
    const input = dir ? path.join(dir, 'upload') : 'pipe:0';
    if (dir) await writeFile(input, data);
    return await decode(input, dir ? undefined : data, signal);
  } finally {
    if (dir) await rm(dir, { recursive: true, force: true });
  }
}

function decode(input: string, stdin: Uint8Array | undefined, signal?: AbortSignal): Promise<DecodedAudio | undefined> {
  const args = ['-hide_banner', '-nostats', '-i', input, '-map', '0:a:0', '-ac', '1', '-ar', '8000', '-f', 's16le', 'pipe:1'];
  const child = spawn(ffmpegPath(), args, { stdio: [stdin ? 'pipe' : 'ignore', 'pipe', 'pipe'], signal });
  let stderr = '';
  let bytes = 0;
  child.stdout!.on('data', (d: Buffer) => void (bytes += d.length));
  child.stderr!.on('data', (d: Buffer) => void (stderr.length < 256_000 && (stderr += d.toString())));
  if (stdin) {
    child.stdin!.on('error', () => undefined);
    child.stdin!.end(stdin);
  }
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0 || bytes === 0) return resolve(undefined);
      const comment = /^\s+comment\s+: (.*)$/m.exec(stderr)?.[1];
      resolve({ durationSeconds: bytes / 2 / 8000, ...(comment ? { comment } : {}) });
    });
  });
}
