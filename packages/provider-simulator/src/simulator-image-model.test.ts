import jpeg from 'jpeg-js';
import { PNG } from 'pngjs';
import { GatewayError, type ImageInput, type ImageRequest, type ImageStreamPart } from '@gateway/core';
import { SimulatorImageModel, promptColor } from './simulator-image-model';

const ctx = { signal: new AbortController().signal, requestId: 'r' };
const sim = new SimulatorImageModel();
const req = (over: Partial<ImageRequest> = {}): ImageRequest => ({
  model: 'sim-image',
  prompt: 'a fox',
  n: 1,
  width: 64,
  height: 48,
  outputFormat: 'png',
  ...over,
});

const readPng = (data: Uint8Array) => PNG.sync.read(Buffer.from(data));
const pixel = (img: { width: number; data: Uint8Array }, x: number, y: number) =>
  Array.from(img.data.subarray((y * img.width + x) * 4, (y * img.width + x) * 4 + 4));

function solidPng(width: number, height: number, rgba: number[], alphaFor?: (x: number, y: number) => number): ImageInput {
  const png = new PNG({ width, height });
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) png.data.set([rgba[0]!, rgba[1]!, rgba[2]!, alphaFor ? alphaFor(x, y) : rgba[3]!], (y * width + x) * 4);
  return { mediaType: 'image/png', data: PNG.sync.write(png), width, height };
}

function differingPixels(a: Uint8Array, b: Uint8Array): number {
  let n = 0;
  for (let i = 0; i < a.length; i += 4) if (a[i] !== b[i] || a[i + 1] !== b[i + 1] || a[i + 2] !== b[i + 2]) n++;
  return n;
}

describe('SimulatorImageModel', () => {
  it('returns real PNGs of the requested size, n of them', async () => {
    const r = await sim.generate(req({ n: 2 }), ctx);
    expect(r.images).toHaveLength(2);
    for (const img of r.images) {
      expect(img.mediaType).toBe('image/png');
      const png = readPng(img.data);
      expect([png.width, png.height]).toEqual([64, 48]);
    }
    expect(r.usage).toEqual({ inputTextTokens: 2, inputImageTokens: 0, outputTokens: 340 });
  });

  it('returns real JPEGs when asked', async () => {
    const r = await sim.generate(req({ outputFormat: 'jpeg', width: 80, height: 40 }), ctx);
    expect(r.images[0]!.mediaType).toBe('image/jpeg');
    const decoded = jpeg.decode(Buffer.from(r.images[0]!.data));
    expect([decoded.width, decoded.height]).toEqual([80, 40]);
  });

  it('gives visibly different pictures for different prompts, the same for the same prompt', async () => {
    const a = readPng((await sim.generate(req({ prompt: 'a lighthouse at dusk' }), ctx)).images[0]!.data).data;
    const b = readPng((await sim.generate(req({ prompt: 'three green apples' }), ctx)).images[0]!.data).data;
    const again = readPng((await sim.generate(req({ prompt: 'a lighthouse at dusk' }), ctx)).images[0]!.data).data;
    expect(differingPixels(a, b)).toBeGreaterThan((64 * 48) / 2);
    expect(differingPixels(a, again)).toBe(0);
  });

  it('a transparent background has transparent pixels', async () => {
    const png = readPng((await sim.generate(req({ background: 'transparent' }), ctx)).images[0]!.data);
    expect(png.data.some((_, i) => i % 4 === 3 && png.data[i] === 0)).toBe(true);
  });

  it('paints the prompt color into the transparent part of the mask only', async () => {
    const image = solidPng(40, 40, [100, 100, 100, 255]);
    const mask = solidPng(40, 40, [0, 0, 0, 255], (x) => (x < 20 ? 0 : 255));
    const r = await sim.generate(req({ prompt: 'make it red', width: 40, height: 40, images: [image], mask }), ctx);
    const out = readPng(r.images[0]!.data);
    expect(pixel(out, 5, 20).slice(0, 3)).toEqual(promptColor('red'));
    expect(pixel(out, 35, 20).slice(0, 3)).toEqual([100, 100, 100]);
  });

  it('without a mask, tints the image and draws a border', async () => {
    const image = solidPng(40, 40, [100, 100, 100, 255]);
    const out = readPng((await sim.generate(req({ prompt: 'a blue mood', width: 40, height: 40, images: [image] }), ctx)).images[0]!.data);
    expect(pixel(out, 0, 0).slice(0, 3)).toEqual(promptColor('blue'));
    const center = pixel(out, 20, 20);
    expect(center.slice(0, 3)).not.toEqual([100, 100, 100]);
    expect(center[2]).toBeGreaterThan(center[0]!);
  });

  it('edits JPEG input and scales it to the requested size', async () => {
    const raw = Buffer.alloc(16 * 16 * 4, 200);
    const input: ImageInput = {
      mediaType: 'image/jpeg',
      data: jpeg.encode({ data: raw, width: 16, height: 16 }, 90).data,
      width: 16,
      height: 16,
    };
    const out = readPng((await sim.generate(req({ prompt: 'green', width: 32, height: 32, images: [input] }), ctx)).images[0]!.data);
    expect([out.width, out.height]).toEqual([32, 32]);
  });

  it('refuses webp output (no pure-JS encoder) and fails on [sim:fail]', async () => {
    await expect(sim.generate(req({ outputFormat: 'webp' }), ctx)).rejects.toMatchObject({ status: 400, param: 'output_format' });
    const failure = await sim.generate(req({ prompt: 'x [sim:fail]' }), ctx).catch((e) => e);
    expect(failure).toBeInstanceOf(GatewayError);
    expect(failure.reason).toBe('upstream_error');
  });

  it('streams partial images, then the image, then the usage', async () => {
    const parts: ImageStreamPart[] = [];
    for await (const p of sim.stream!(req({ partialImages: 2 }), ctx)) parts.push(p);
    expect(parts.map((p) => p.type)).toEqual(['partial-image', 'partial-image', 'image', 'finish']);
    const [p0, , final] = parts as Array<Extract<ImageStreamPart, { image: unknown }>>;
    expect(readPng(p0!.image.data).width).toBe(64);
    expect(differingPixels(readPng(p0!.image.data).data, readPng(final!.image.data).data)).toBeGreaterThan(0);
  });
});
