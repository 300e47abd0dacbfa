/** WAV (RIFF) files: the simulator writes them natively and reads any PCM WAV back without ffmpeg. */

/** The comment that carries what the simulator spoke, in every container that has tags. */
export const SPOKEN_TAG = 'sim-speech:';

export const spokenComment = (text: string): string => SPOKEN_TAG + Buffer.from(text, 'utf8').toString('base64');

/** The text a sim-speech comment carries, or undefined for any other comment. */
export function spokenTextOf(comment: string | undefined): string | undefined {
  if (!comment?.startsWith(SPOKEN_TAG)) return undefined;
  const b64 = comment.slice(SPOKEN_TAG.length).trim();
  return /^[A-Za-z0-9+/]*={0,2}$/.test(b64) ? Buffer.from(b64, 'base64').toString('utf8') : undefined;
}

function chunk(id: string, body: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.write(id, 0, 'ascii');
  head.writeUInt32LE(body.length, 4);
  return Buffer.concat([head, body, body.length % 2 ? Buffer.alloc(1) : Buffer.alloc(0)]);
}

/** A LIST/INFO chunk: software name and the comment (ICMT), which ffmpeg and players show as `comment`. */
function infoChunk(comment: string): Buffer {
  const text = (s: string) => Buffer.concat([Buffer.from(s, 'latin1'), Buffer.alloc(1)]);
  return chunk('LIST', Buffer.concat([Buffer.from('INFO'), chunk('ISFT', text('gateway simulator')), chunk('ICMT', text(comment))]));
}

/** A 16-bit PCM WAV of mono samples, with an optional comment. */
export function wavFile(pcm: Buffer, sampleRate: number, comment?: string): Buffer {
  const fmt = Buffer.alloc(16);
  fmt.writeUInt16LE(1, 0); // PCM
  fmt.writeUInt16LE(1, 2); // mono
  fmt.writeUInt32LE(sampleRate, 4);
  fmt.writeUInt32LE(sampleRate * 2, 8);
  fmt.writeUInt16LE(2, 12);
  fmt.writeUInt16LE(16, 14);
  const body = Buffer.concat([Buffer.from('WAVE'), chunk('fmt ', fmt), ...(comment ? [infoChunk(comment)] : []), chunk('data', pcm)]);
  return chunk('RIFF', body);
}

export interface WavInfo {
  sampleRate: number;
  channels: number;
  bitsPerSample: number;
  durationSeconds: number;
  comment?: string;
}

function infoComment(list: Buffer): string | undefined {
  if (list.toString('ascii', 0, 4) !== 'INFO') return undefined;
  for (let at = 4; at + 8 <= list.length;) {
    const size = list.readUInt32LE(at + 4);
    if (list.toString('ascii', at, at + 4) === 'ICMT') return list.toString('latin1', at + 8, at + 8 + size).replace(/\0+$/, '');
    at += 8 + size + (size % 2);
  }
  return undefined;
}

/**
 * The header of a PCM WAV (format 1 or WAVE_FORMAT_EXTENSIBLE), or undefined when the bytes are not one. A data
 * chunk that claims more than the file holds (a streamed WAV's placeholder size) counts what is there.
 */
export function readWav(file: Uint8Array): WavInfo | undefined {
  const b = Buffer.from(file.buffer, file.byteOffset, file.byteLength);
  if (b.length < 12 || b.toString('ascii', 0, 4) !== 'RIFF' || b.toString('ascii', 8, 12) !== 'WAVE') return undefined;
  let fmt: { channels: number; sampleRate: number; bitsPerSample: number; format: number } | undefined;
  let comment: string | undefined;
  for (let at = 12; at + 8 <= b.length;) {
    const id = b.toString('ascii', at, at + 4);
    const size = b.readUInt32LE(at + 4);
    const body = b.subarray(at + 8, Math.min(b.length, at + 8 + size));
    if (id === 'fmt ' && body.length >= 16) {
      fmt = {
        format: body.readUInt16LE(0),
        channels: body.readUInt16LE(2),
        sampleRate: body.readUInt32LE(4),
        bitsPerSample: body.readUInt16LE(14),
      };
    } else if (id === 'LIST') {
      comment ??= infoComment(body);
    } else if (id === 'data') {
      if (!fmt || (fmt.format !== 1 && fmt.format !== 0xfffe) || !fmt.channels || !fmt.sampleRate || !fmt.bitsPerSample) return undefined;
      const frame = fmt.channels * (fmt.bitsPerSample / 8);
      const { format: _, ...rest } = fmt;
      return { ...rest, durationSeconds: Math.floor(body.length / frame) / fmt.sampleRate, ...(comment ? { comment } : {}) };
    }
    at += 8 + size + (size % 2);
  }
  return undefined;
}
