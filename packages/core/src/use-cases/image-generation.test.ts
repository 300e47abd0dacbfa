import { DEFAULT_IMAGE_CAPABILITIES, imageCapabilitiesOf, ModelCatalogue, type ModelSpec } from '../catalogue';
import { GatewayError } from '../errors';
import type { ImageRequest } from '../image';
import type { ImageModelPort } from '../ports/image-model.port';
import type { UsageRow } from '../ports/usage-log.port';
import type { Billing } from './billing';
import { ImageGeneration } from './image-generation';
import type { ImageCommand } from './image-request-check';
import { jpegHeader, pngHeader } from '@gateway/testkit';

const caps = {
  sizes: ['auto', '1024x1024', '256x256'],
  qualities: ['auto', 'high'],
  outputFormats: ['png', 'jpeg'],
  styles: ['vivid', 'natural'],
  backgrounds: ['auto', 'opaque', 'transparent'],
  stream: true,
  maxPartialImages: 2,
  edits: true,
};
const models: ModelSpec[] = [
  { id: 'img', kind: 'image', image: caps, deployments: [{ provider: 'p', upstreamModel: 'up-img', priority: 0, weight: 1 }] },
  { id: 'plain', kind: 'image', deployments: [{ provider: 'p', upstreamModel: 'plain', priority: 0, weight: 1 }] },
  {
    id: 'noedit',
    kind: 'image',
    image: { ...caps, edits: false, stream: false },
    deployments: [{ provider: 'p', upstreamModel: 'n', priority: 0, weight: 1 }],
  },
  { id: 'chat', kind: 'text', deployments: [{ provider: 'p', upstreamModel: 'c', priority: 0, weight: 1 }] },
];
const catalogue = new ModelCatalogue(models, [{ name: 'g', models: ['*'] }]);
const principal = { accountId: 'a', keyId: 'k', group: 'g' };
const meta = { format: 'test', requestId: 'r1', signal: new AbortController().signal };

function setup(port: Partial<ImageModelPort> = {}) {
  const rows: UsageRow[] = [];
  const seen: ImageRequest[] = [];
  const full: ImageModelPort = {
    generate: async (req) => {
      seen.push(req);
      return {
        images: [{ mediaType: 'image/png', data: Uint8Array.from([1]) }],
        warnings: [],
        usage: { inputTextTokens: 2, inputImageTokens: 0, outputTokens: 5 },
      };
    },
    ...port,
  };
  const uc = new ImageGeneration({
    catalogue,
    providers: { image: () => full },
    usage: { record: (r) => rows.push(r), flush: async () => {} },
  });
  return { uc, rows, seen };
}
const gen = (over: Partial<ImageCommand> = {}): ImageCommand => ({ operation: 'generate', model: 'img', prompt: 'a red fox', ...over });
const edit = (over: Partial<ImageCommand> = {}): ImageCommand => ({
  operation: 'edit',
  model: 'img',
  prompt: 'blue sky',
  images: [{ data: pngHeader(64, 32) }],
  ...over,
});

function refusal(fn: () => unknown): GatewayError {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(GatewayError);
    return e as GatewayError;
  }
  throw new Error('expected a refusal');
}

describe('image capabilities', () => {
  it('fills undeclared fields from the one defaults table', () => {
    const c = imageCapabilitiesOf({ id: 'x', kind: 'image', image: { sizes: ['512x512'] } as never, deployments: [] });
    expect(c.sizes).toEqual(['512x512']);
    expect(c.outputFormats).toEqual(DEFAULT_IMAGE_CAPABILITIES.outputFormats);
    expect(c.stream).toBe(false);
  });
});

describe('ImageGeneration.prepare', () => {
  const { uc } = setup();

  it('defaults: first concrete size, png, one image, reported settings', () => {
    const call = uc.prepare(principal, gen());
    expect(call.request).toMatchObject({ width: 1024, height: 1024, n: 1, outputFormat: 'png', prompt: 'a red fox' });
    expect(call.settings).toEqual({ size: '1024x1024', quality: 'auto', background: 'auto', outputFormat: 'png' });
    expect(call.stream).toBe(false);
  });

  it('an explicit size sets the output size', () => {
    expect(uc.prepare(principal, gen({ size: '256x256' })).request).toMatchObject({ width: 256, height: 256 });
  });

  it.each<[string, Partial<ImageCommand>, string, string]>([
    ['size', { size: '300x300' }, 'size', '1024x1024'],
    ['size syntax', { size: 'big' }, 'size', 'allowed values'],
    ['quality', { quality: 'hd' }, 'quality', 'auto, high'],
    ['style', { style: 'oil' }, 'style', 'vivid, natural'],
    ['background', { background: 'checkered' }, 'background', 'transparent'],
    ['output format', { outputFormat: 'webp' }, 'output_format', 'png, jpeg'],
    ['n too large', { n: 11 }, 'n', '1 to 10'],
    ['n zero', { n: 0 }, 'n', '1 to 10'],
    ['n fractional', { n: 1.5 }, 'n', '1 to 10'],
    ['empty prompt', { prompt: '  ' }, 'prompt', 'required'],
    ['missing prompt', { prompt: undefined }, 'prompt', 'required'],
    ['too many partial images', { stream: true, partialImages: 3 }, 'partial_images', '0 to 2'],
    ['partial images without stream', { partialImages: 1 }, 'partial_images', 'stream'],
    ['streaming several images', { stream: true, n: 2 }, 'n', 'must be 1'],
    ['transparent jpeg', { background: 'transparent', outputFormat: 'jpeg' }, 'background', 'png or webp'],
    ['compression for png', { outputCompression: 50 }, 'output_compression', 'jpeg and webp'],
    ['compression out of range', { outputFormat: 'jpeg', outputCompression: 101 }, 'output_compression', '0 to 100'],
  ])('refuses a bad %s with a 400 naming the field and what is allowed', (_name, over, param, allowed) => {
    const e = refusal(() => uc.prepare(principal, gen(over)));
    expect(e.status).toBe(400);
    expect(e.param).toBe(param);
    expect(e.message).toContain(allowed);
  });

  it('accepts every declared value', () => {
    for (const quality of caps.qualities) expect(() => uc.prepare(principal, gen({ quality }))).not.toThrow();
    for (const style of caps.styles) expect(() => uc.prepare(principal, gen({ style }))).not.toThrow();
    for (const background of caps.backgrounds) expect(() => uc.prepare(principal, gen({ background }))).not.toThrow();
    for (const outputFormat of caps.outputFormats) expect(() => uc.prepare(principal, gen({ outputFormat }))).not.toThrow();
    expect(uc.prepare(principal, gen({ stream: true, partialImages: 2 })).request.partialImages).toBe(2);
    expect(uc.prepare(principal, gen({ outputFormat: 'jpeg', outputCompression: 0 })).request.outputCompression).toBe(0);
  });

  it('names fields the way the caller spells them', () => {
    const e = refusal(() => uc.prepare(principal, gen({ size: '1x1', paramNames: { size: 'imageConfig.imageSize' } })));
    expect(e.param).toBe('imageConfig.imageSize');
  });

  it('a model without declared styles refuses any style; without stream, refuses stream', () => {
    expect(refusal(() => uc.prepare(principal, gen({ model: 'plain', style: 'vivid' }))).message).toContain('does not support "style"');
    expect(refusal(() => uc.prepare(principal, gen({ model: 'plain', stream: true }))).param).toBe('stream');
  });

  it('a text model is not an image model', () => {
    expect(refusal(() => uc.prepare(principal, gen({ model: 'chat' }))).code).toBe('model_kind_mismatch');
  });

  describe('edits', () => {
    it('size defaults to the first image; style is for generations only', () => {
      expect(uc.prepare(principal, edit()).request).toMatchObject({ width: 64, height: 32 });
      expect(uc.prepare(principal, edit({ size: 'auto' })).settings.size).toBe('64x32');
      expect(refusal(() => uc.prepare(principal, edit({ style: 'vivid' }))).param).toBe('style');
    });

    it('recognises files from their bytes and refuses anything else', () => {
      expect(uc.prepare(principal, edit({ images: [{ data: jpegHeader(40, 30) }] })).request.images![0]).toMatchObject({
        mediaType: 'image/jpeg',
        width: 40,
        height: 30,
      });
      const e = refusal(() => uc.prepare(principal, edit({ images: [{ data: Buffer.from('not an image at all, just text') }] })));
      expect([e.code, e.param]).toEqual(['invalid_image_file', 'image']);
      expect(refusal(() => uc.prepare(principal, edit({ images: [{ data: pngHeader(8, 8) }, { data: Buffer.from('x') }] }))).param).toBe(
        'image[1]',
      );
    });

    it('refuses huge pixel sizes before anyone decodes them', () => {
      expect(refusal(() => uc.prepare(principal, edit({ images: [{ data: pngHeader(5000, 10) }] }))).code).toBe(
        'image_dimensions_too_large',
      );
    });

    it('the mask must be a PNG of the image size', () => {
      expect(uc.prepare(principal, edit({ mask: { data: pngHeader(64, 32) } })).request.mask).toMatchObject({ width: 64, height: 32 });
      const mismatch = refusal(() => uc.prepare(principal, edit({ mask: { data: pngHeader(32, 32) } })));
      expect([mismatch.code, mismatch.param]).toEqual(['mask_size_mismatch', 'mask']);
      expect(mismatch.message).toContain('32x32');
      expect(refusal(() => uc.prepare(principal, edit({ mask: { data: jpegHeader(64, 32) } }))).code).toBe('invalid_mask');
    });

    it('needs an image, at most 16, and a model that edits', () => {
      expect(refusal(() => uc.prepare(principal, edit({ images: [] }))).code).toBe('missing_image');
      expect(
        refusal(() => uc.prepare(principal, edit({ images: Array.from({ length: 17 }, () => ({ data: pngHeader(4, 4) })) }))).code,
      ).toBe('too_many_images');
      expect(refusal(() => uc.prepare(principal, edit({ model: 'noedit' }))).code).toBe('edits_not_supported');
    });
  });
});

describe('ImageGeneration calls', () => {
  it('sends the upstream model name and logs one usage row', async () => {
    const { uc, rows, seen } = setup();
    const result = await uc.generate(principal, uc.prepare(principal, gen()), meta);
    expect(result.images).toHaveLength(1);
    expect(seen[0]!.model).toBe('up-img');
    expect(rows).toEqual([
      expect.objectContaining({
        model: 'img',
        status: 'ok',
        httpStatus: 200,
        inputTokens: 2,
        outputTokens: 5,
        provider: 'p',
        format: 'test',
      }),
    ]);
  });

  it('logs a failure with its status and code, and rethrows it', async () => {
    const { uc, rows } = setup({
      generate: async () => {
        throw new GatewayError('rate_limited', 'slow down');
      },
    });
    await expect(uc.generate(principal, uc.prepare(principal, gen()), meta)).rejects.toMatchObject({ reason: 'rate_limited' });
    expect(rows[0]).toMatchObject({ status: 'error', httpStatus: 429, errorCode: 'rate_limited' });
  });

  it('streams the finished image when the upstream cannot stream partials', async () => {
    const { uc, rows } = setup();
    const parts = [];
    for await (const p of uc.stream(principal, uc.prepare(principal, gen({ stream: true })), meta)) parts.push(p.type);
    expect(parts).toEqual(['image', 'finish']);
    expect(rows[0]).toMatchObject({ status: 'ok', outputTokens: 5 });
  });

  it('a stream its caller abandons closes the upstream, is charged for the images delivered and refunds the rest', async () => {
    const priced: ModelSpec = { ...models[0]!, id: 'priced', pricing: { perImage: 3 } };
    const closed: string[] = [];
    const money: string[] = [];
    const rows: UsageRow[] = [];
    const port: ImageModelPort = {
      generate: async () => {
        throw new Error('not called');
      },
      async *stream() {
        try {
          yield { type: 'partial-image', partialIndex: 0, image: { mediaType: 'image/png', data: Uint8Array.from([1]) } };
          await new Promise(() => undefined);
        } finally {
          closed.push('upstream');
        }
      },
    };
    const billing = {
      reserve: async (_p: unknown, amount: number) => void money.push(`reserve ${amount}`),
      refund: async (_p: unknown, amount: number) => void money.push(`refund ${amount}`),
    } as unknown as Billing;
    const uc = new ImageGeneration({
      catalogue: new ModelCatalogue([priced], [{ name: 'g', models: ['*'] }]),
      providers: { image: () => port },
      usage: { record: (r) => rows.push(r), flush: async () => {} },
      billing,
    });
    const call = uc.prepare(principal, gen({ model: 'priced', stream: true, partialImages: 1 }));
    for await (const part of uc.stream(principal, call, meta)) if (part.type === 'partial-image') break;
    expect(closed).toEqual(['upstream']);
    expect(money).toEqual(['reserve 3', 'refund 3']);
    expect(rows).toEqual([expect.objectContaining({ status: 'cancelled', httpStatus: 499, errorCode: 'client_closed', credits: 0 })]);
    expect(uc.circuitState('p', 'up-img')).toBe('closed');
  });

  it("names the upstream's request id of a failed call on the usage row", async () => {
    const { uc, rows } = setup({
      generate: async () => {
        throw new GatewayError('invalid_request', 'no', { upstreamRequestId: 'req_img_1', upstreamStatus: 400 });
      },
    });
    await expect(uc.generate(principal, uc.prepare(principal, gen()), meta)).rejects.toMatchObject({ reason: 'invalid_request' });
    expect(rows[0]).toMatchObject({ status: 'error', upstreamRequestId: 'req_img_1' });
  });
});
