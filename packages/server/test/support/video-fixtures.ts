/** Images made in the test (never downloaded) and a minimal MP4 reader for the video format tests. */
import { PNG } from 'pngjs';
import jpeg from 'jpeg-js';

/** A gradient, filled byte by byte (allocation-free: this runs for 1280x720 frames). */
function pixels(width: number, height: number): Buffer {
  const data = Buffer.alloc(width * height * 4);
  for (let i = 0; i < data.length; i += 4) {
    data[i] = (i >> 3) & 255;
    data[i + 1] = (i >> 13) & 255;
    data[i + 2] = 128;
    data[i + 3] = 255;
  }
  return data;
}

export function pngImage(width: number, height: number): Buffer {
  // One fixed row filter: pngjs's adaptive filter choice takes seconds per 720p frame in pure JS.
  const png = new PNG({ width, height, filterType: 1 });
  pixels(width, height).copy(png.data);
  return PNG.sync.write(png, { filterType: 1 });
}

export function jpegImage(width: number, height: number): Buffer {
  return jpeg.encode({ data: pixels(width, height), width, height }, 80).data;
}

/** The Gemini inline image object. */
export const inline = (bytes: Buffer, mimeType = 'image/png') => ({ bytesBase64Encoded: bytes.toString('base64'), mimeType });
export const dataUrl = (bytes: Buffer, type = 'image/png') => `data:${type};base64,${bytes.toString('base64')}`;

/** Top-level MP4 boxes (type → payload), and nested ones of `moov`. */
function boxes(buf: Buffer, start = 0, end = buf.length): Map<string, Buffer> {
  const out = new Map<string, Buffer>();
  for (let i = start; i + 8 <= end;) {
    let size = buf.readUInt32BE(i);
    const type = buf.toString('latin1', i + 4, i + 8);
    let header = 8;
    if (size === 1) {
      size = Number(buf.readBigUInt64BE(i + 8));
      header = 16;
    } else if (size === 0) size = end - i;
    if (size < header) break;
    out.set(type, buf.subarray(i + header, i + size));
    i += size;
  }
  return out;
}

export function isMp4(buf: Buffer): boolean {
  return buf.length > 12 && buf.toString('latin1', 4, 8) === 'ftyp';
}

/** Duration from moov/mvhd (timescale and duration, version 0 or 1). */
export function mp4DurationSeconds(buf: Buffer): number {
  const moov = boxes(buf).get('moov');
  const mvhd = moov && boxes(moov).get('mvhd');
  if (!mvhd) throw new Error('no moov/mvhd box');
  return mvhd[0] === 1 ? Number(mvhd.readBigUInt64BE(24)) / mvhd.readUInt32BE(20) : mvhd.readUInt32BE(16) / mvhd.readUInt32BE(12);
}
