import { promisify } from 'node:util';
import { crc32, deflate } from 'node:zlib';

const deflateAsync = promisify(deflate);

function chunk(type: string, data: Buffer): Buffer {
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const out = Buffer.alloc(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  body.copy(out, 4);
  out.writeUInt32BE(crc32(body), 8 + data.length);
  return out;
}

/**
 * RGBA pixels as a PNG (no row filters), compressed on libuv's thread pool rather than the event loop:
 * a large picture does not hold up other requests while it is deflated.
 */
export async function encodePng(px: Uint8Array, width: number, height: number, level = 6): Promise<Buffer> {
  const stride = width * 4;
  const raw = Buffer.alloc((stride + 1) * height); // each row: filter byte 0, then the row as is
  for (let y = 0; y < height; y++) raw.set(px.subarray(y * stride, (y + 1) * stride), y * (stride + 1) + 1);
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 6, 0, 0, 0], 8); // 8-bit RGBA
  return Buffer.concat([
    Buffer.from('89504e470d0a1a0a', 'hex'),
    chunk('IHDR', header),
    chunk('IDAT', await deflateAsync(raw, { level })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}
