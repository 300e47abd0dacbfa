/**
 * Images cannot stall the gateway: a client image over 40 megapixels is refused from its header (before
 * anything decodes it), and while the largest image request the gateway accepts is processed, /healthz
 * still answers in under 100 ms.
 */
import { crc32, deflateSync } from 'node:zlib';
import { IMAGE_LIMITS, MAX_IMAGE_PIXELS } from '@gateway/core';
import { ALPHA_KEY, startTestGateway, type TestGateway } from './support/test-gateway';

jest.setTimeout(120_000);

let gw: TestGateway;
beforeAll(async () => {
  gw = await startTestGateway();
});
afterAll(async () => {
  await gw.stop();
});

/** A real PNG of the given size, grey, built with zlib directly (pngjs would take minutes for the large ones). */
function png(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const out = Buffer.alloc(12 + data.length);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(crc32(body), 8 + data.length);
    return out;
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 2, 0, 0, 0], 8); // 8-bit RGB
  const row = Buffer.alloc(1 + width * 3, 0x80);
  row[0] = 0;
  const raw = Buffer.concat(Array.from({ length: height }, () => row));
  return Buffer.concat([
    Buffer.from('89504e470d0a1a0a', 'hex'),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A 1x1 PNG whose header claims another size: a header check refuses it, a decoder would choke on it. */
function pngHeader(width: number, height: number): Buffer {
  const b = png(1, 1);
  b.writeUInt32BE(width, 16);
  b.writeUInt32BE(height, 20);
  return b;
}

function edit(images: Buffer[]): Promise<Response> {
  const form = new FormData();
  form.append('model', 'sim-image');
  form.append('prompt', 'paint it red');
  form.append('size', '1536x1024');
  images.forEach((img, i) => form.append('image[]', new Blob([img], { type: 'image/png' }), `in${i}.png`));
  return fetch(`${gw.url}/v1/images/edits`, { method: 'POST', headers: { Authorization: `Bearer ${ALPHA_KEY}` }, body: form });
}

describe('image decoding never stalls the gateway', () => {
  it(`an image over ${MAX_IMAGE_PIXELS / 1e6} megapixels is a 400 naming the limit, decided from the header`, async () => {
    const res = await edit([pngHeader(8000, 6000)]);
    const body = (await res.json()) as { error: { code: string; message: string; param: string } };
    expect(res.status).toBe(400);
    expect(body.error).toMatchObject({ code: 'image_too_many_pixels', param: 'image' });
    expect(body.error.message).toContain(`${MAX_IMAGE_PIXELS / 1e6} megapixels`);
  });

  // The simulator's pixel work (decode, resize, edit, encode) runs in worker threads (provider-simulator/image-pool.ts).
  // The bound is the purpose (the loop is never held for the seconds a decode on it takes), not a latency target: those live
  // in the benchmarks. A decode on the loop would hold most probes for seconds; a single probe can lose the CPU to the
  // machine's other work, hence the percentile and a loose ceiling.
  it('/healthz keeps answering (90th percentile within 300 ms, or 3x its idle one on a busy machine; none over 3 s) while the largest accepted edit is processed', async () => {
    // the same probes first with nothing in flight: on a loaded machine the bound grows with what the machine gives
    const idle: number[] = [];
    for (let i = 0; i < 20; i++) {
      const started = performance.now();
      await (await fetch(`${gw.url}/healthz`)).arrayBuffer();
      idle.push(performance.now() - started);
    }
    const idleP90 = [...idle].sort((a, b) => a - b)[Math.floor(idle.length * 0.9)]!;
    const side = IMAGE_LIMITS.maxInputSide;
    const big = png(side, side);
    const pending = edit(Array.from({ length: IMAGE_LIMITS.maxEditImages }, () => big));
    let done = false;
    void pending.finally(() => (done = true));
    const latencies: number[] = [];
    while (!done) {
      const started = performance.now();
      const res = await fetch(`${gw.url}/healthz`);
      await res.arrayBuffer();
      latencies.push(performance.now() - started);
    }
    const res = await pending;
    expect(res.status).toBe(200);
    // observed while the request was in flight, not before it started or after it ended
    expect(latencies.length).toBeGreaterThan(3);
    const sorted = [...latencies].sort((a, b) => a - b);
    expect(sorted[Math.floor(sorted.length * 0.9)]).toBeLessThan(Math.max(300, 3 * idleP90));
    expect(sorted[sorted.length - 1]).toBeLessThan(3000);
  });
});
