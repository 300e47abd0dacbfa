import type { PreparedImageCall } from '@gateway/core';
import { encodeImagesResponse } from './images.response.codec';
import { ImageEventEncoder } from './images.stream.codec';

/** A PNG header (IHDR, then `chunk`, then IEND): enough for the probes, which read no pixels. */
function pngHeader(width: number, height: number, colourType: number, chunk?: string): Uint8Array {
  const ihdr = Buffer.alloc(25);
  ihdr.writeUInt32BE(13, 0);
  ihdr.write('IHDR', 4, 'ascii');
  ihdr.writeUInt32BE(width, 8);
  ihdr.writeUInt32BE(height, 12);
  ihdr[16] = 8;
  ihdr[17] = colourType;
  const chunkOf = (type: string) => Buffer.concat([Buffer.from([0, 0, 0, 0]), Buffer.from(type, 'ascii'), Buffer.alloc(4)]);
  const sig = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([sig, ihdr, ...(chunk ? [chunkOf(chunk)] : []), chunkOf('IEND')]);
}

const call = (settings: Partial<PreparedImageCall['settings']>, operation: 'edit' | 'generate' = 'edit') =>
  ({
    operation,
    request: { prompt: 'p' },
    settings: { size: '1x1', quality: 'auto', background: 'auto', outputFormat: 'png', ...settings },
  }) as unknown as PreparedImageCall;

const answer = (c: PreparedImageCall, data: Uint8Array) =>
  encodeImagesResponse(1, c, { images: [{ mediaType: 'image/png', data }], warnings: [] }, 'b64_json', async () => '');

describe('image answers report the settings actually used', () => {
  it('an edit reports the produced image’s size, never the 1x1 of its input', async () => {
    expect((await answer(call({}), pngHeader(1024, 1536, 2))).size).toBe('1024x1536');
  });

  it('background and quality left auto are what the upstream reports, else opaque for an image without alpha', async () => {
    const reported = await encodeImagesResponse(
      1,
      call({}),
      {
        images: [{ mediaType: 'image/png', data: pngHeader(8, 8, 6) }],
        warnings: [],
        used: { background: 'transparent', quality: 'medium' },
      },
      'b64_json',
      async () => '',
    );
    expect(reported).toMatchObject({ background: 'transparent', quality: 'medium' });
    expect((await answer(call({}), pngHeader(8, 8, 2))).background).toBe('opaque');
    expect((await answer(call({}), pngHeader(8, 8, 3))).background).toBe('opaque');
    expect(await answer(call({}), pngHeader(8, 8, 3, 'tRNS'))).not.toHaveProperty('background');
    expect((await answer(call({ background: 'opaque' }), pngHeader(8, 8, 6))).background).toBe('opaque');
  });

  it('never answers "auto" in an ImagesResponse (its schema lists concrete values only): unknown is left out', async () => {
    const unknown = await answer(call({}), pngHeader(8, 8, 6));
    expect(unknown).not.toHaveProperty('quality');
    expect(unknown).not.toHaveProperty('background');
    expect((await answer(call({ quality: 'high' }), pngHeader(8, 8, 2))).quality).toBe('high');
  });

  it('stream events report the real size and background too (their schema allows quality auto)', () => {
    const enc = new ImageEventEncoder(call({}), 1);
    enc.encode({ type: 'image', image: { mediaType: 'image/png', data: pngHeader(1536, 1024, 6) } });
    const [done] = enc.encode({ type: 'finish', warnings: [] });
    expect(done).toMatchObject({ type: 'image_edit.completed', size: '1536x1024', background: 'auto', quality: 'auto' });
  });

  it('a size the schema does not list (a 1x1 edit, 512x512) is left out of the answer and auto in a stream event', async () => {
    for (const [w, h] of [
      [1, 1],
      [512, 512],
    ] as const) {
      expect(await answer(call({}), pngHeader(w, h, 2))).not.toHaveProperty('size');
      const enc = new ImageEventEncoder(call({}), 1);
      enc.encode({ type: 'image', image: { mediaType: 'image/png', data: pngHeader(w, h, 2) } });
      expect(enc.encode({ type: 'finish', warnings: [] })[0]).toMatchObject({ size: 'auto' });
    }
  });
});
