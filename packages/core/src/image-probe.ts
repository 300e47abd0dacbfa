import { invalid } from './errors';

/** Recognises PNG, JPEG and WebP from their bytes (never the name) and reads their pixel size. */
export interface ProbedImage {
  mediaType: 'image/png' | 'image/jpeg' | 'image/webp';
  width: number;
  height: number;
}

export function probeImage(b: Uint8Array): ProbedImage | null {
  const buf = Buffer.from(b.buffer, b.byteOffset, b.byteLength);
  if (
    buf.length >= 24 &&
    buf.readUInt32BE(0) === 0x89504e47 &&
    buf.readUInt32BE(4) === 0x0d0a1a0a &&
    buf.toString('ascii', 12, 16) === 'IHDR'
  ) {
    const width = buf.readUInt32BE(16);
    const height = buf.readUInt32BE(20);
    return width > 0 && height > 0 ? { mediaType: 'image/png', width, height } : null;
  }
  if (buf.length >= 4 && buf[0] === 0xff && buf[1] === 0xd8 && buf[2] === 0xff) {
    let i = 2;
    while (i + 9 < buf.length) {
      if (buf[i] !== 0xff) return null;
      const marker = buf.readUInt8(i + 1);
      if (marker === 0xff) {
        i++;
        continue;
      }
      const len = buf.readUInt16BE(i + 2);
      // SOF0..SOF15 except DHT (C4), JPG (C8), DAC (CC)
      if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
        const height = buf.readUInt16BE(i + 5);
        const width = buf.readUInt16BE(i + 7);
        return width > 0 && height > 0 ? { mediaType: 'image/jpeg', width, height } : null;
      }
      if (len < 2) return null;
      i += 2 + len;
    }
    return null;
  }
  if (buf.length >= 30 && buf.toString('ascii', 0, 4) === 'RIFF' && buf.toString('ascii', 8, 12) === 'WEBP') {
    const chunk = buf.toString('ascii', 12, 16);
    if (chunk === 'VP8X') return { mediaType: 'image/webp', width: 1 + buf.readUIntLE(24, 3), height: 1 + buf.readUIntLE(27, 3) };
    if (chunk === 'VP8 ' && buf[23] === 0x9d && buf[24] === 0x01 && buf[25] === 0x2a) {
      return { mediaType: 'image/webp', width: buf.readUInt16LE(26) & 0x3fff, height: buf.readUInt16LE(28) & 0x3fff };
    }
    if (chunk === 'VP8L' && buf[20] === 0x2f) {
      const bits = buf.readUInt32LE(21);
      return { mediaType: 'image/webp', width: (bits & 0x3fff) + 1, height: ((bits >> 14) & 0x3fff) + 1 };
    }
  }
  return null;
}

/**
 * The most pixels a client's image may have: its header is read before anything decodes it, so a small,
 * highly compressed file cannot become gigabytes of pixels (decoders hold 4 bytes per pixel).
 */
export const MAX_IMAGE_PIXELS = 40_000_000;

/** probeImage for an image a client sent: beyond MAX_IMAGE_PIXELS it is refused, naming the limit and `param`. */
export function probeClientImage(b: Uint8Array, param: string): ProbedImage | null {
  const probed = probeImage(b);
  if (probed && probed.width * probed.height > MAX_IMAGE_PIXELS) {
    throw invalid(
      'image_too_many_pixels',
      `${param} is ${probed.width}x${probed.height} (${((probed.width * probed.height) / 1e6).toFixed(1)} megapixels); images may have at most ${MAX_IMAGE_PIXELS / 1e6} megapixels.`,
      param,
    );
  }
  return probed;
}

/** Strict base64 (standard alphabet, optional padding): Buffer.from would silently skip garbage. */
export function decodeBase64Strict(text: string): Uint8Array | null {
  const clean = text.replace(/\s+/g, '');
  if (!clean || clean.length % 4 === 1 || !/^[A-Za-z0-9+/]*={0,2}$/.test(clean)) return null;
  return Buffer.from(clean, 'base64');
}

/**
 * Whether the image's format carries an alpha channel (PNG colour types 4 and 6 or a tRNS chunk; WebP's alpha flag);
 * JPEG never does. Undefined for bytes probeImage does not recognise.
 */
export function imageHasAlpha(b: Uint8Array): boolean | undefined {
  const probed = probeImage(b);
  if (!probed) return undefined;
  const buf = Buffer.from(b.buffer, b.byteOffset, b.byteLength);
  if (probed.mediaType === 'image/jpeg') return false;
  if (probed.mediaType === 'image/png') {
    if (buf[25] === 4 || buf[25] === 6) return true;
    // chunks after IHDR, up to the first IDAT: a tRNS chunk makes one colour transparent
    for (let i = 33; i + 8 <= buf.length; i += 12 + buf.readUInt32BE(i)) {
      const type = buf.toString('ascii', i + 4, i + 8);
      if (type === 'tRNS') return true;
      if (type === 'IDAT' || type === 'IEND') return false;
    }
    return false;
  }
  const chunk = buf.toString('ascii', 12, 16);
  if (chunk === 'VP8X') return ((buf[20] ?? 0) & 0x10) !== 0;
  if (chunk === 'VP8L') return ((buf.readUInt32LE(21) >>> 28) & 1) === 1;
  return false;
}
