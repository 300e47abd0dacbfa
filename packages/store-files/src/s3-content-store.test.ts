import { randomBytes } from 'node:crypto';
import { PassThrough, Readable } from 'node:stream';
import { describeContentStoreConformance, startFakeS3, type FakeS3 } from '@gateway/testkit';
import { S3ContentStore } from './s3-content-store';

const PART = 64 * 1024;

function storeOn(fake: FakeS3, overrides: { prefix?: string; secretAccessKey?: string; accessKeyId?: string } = {}) {
  return new S3ContentStore({
    bucket: fake.bucket,
    prefix: overrides.prefix ?? 'gw/content',
    partSize: PART,
    client: {
      endpoint: fake.url,
      region: 'us-east-1',
      forcePathStyle: true,
      credentials: {
        accessKeyId: overrides.accessKeyId ?? fake.accessKeyId,
        secretAccessKey: overrides.secretAccessKey ?? fake.secretAccessKey,
      },
    },
  });
}

const readAll = async (s: NodeJS.ReadableStream) => {
  const chunks: Buffer[] = [];
  for await (const c of s as AsyncIterable<Buffer>) chunks.push(c);
  return Buffer.concat(chunks);
};

// 300 kB spans five 64 KiB parts: the suite exercises multipart uploads and Ranges across part boundaries
describeContentStoreConformance('s3 (fake S3 on 127.0.0.1)', async () => {
  const fake = await startFakeS3();
  const store = storeOn(fake);
  return {
    store,
    backdate: async (key, at) => void (fake.objects.get(`gw/content/${key}`)!.lastModified = at),
    done: async () => {
      store.close();
      await fake.close();
    },
  };
});

describe('S3ContentStore', () => {
  let fake: FakeS3;
  let store: S3ContentStore;
  beforeAll(async () => {
    fake = await startFakeS3({ bucket: 'videos-bucket' });
    store = storeOn(fake);
  });
  afterAll(async () => {
    store.close();
    await fake.close();
  });
  beforeEach(() => fake.requests.splice(0));

  it('keeps objects under the prefix with their media type; a small one is one PutObject of known length', async () => {
    await store.put('videos/a.mp4', Buffer.from('tiny'));
    expect(fake.objects.get('gw/content/videos/a.mp4')).toMatchObject({ data: Buffer.from('tiny'), contentType: 'video/mp4' });
    const puts = fake.requests.filter((r) => r.method === 'PUT');
    expect(puts).toHaveLength(1);
    expect(puts[0]).toMatchObject({ path: '/videos-bucket/gw/content/videos/a.mp4', query: {} });
    expect(puts[0]!.headers['content-length']).toBe('4');
  });

  it('a large stream goes up in parts, never as one buffered body', async () => {
    const data = randomBytes(PART * 3 + 100);
    const src = new PassThrough();
    const put = store.put('videos/big.mp4', src);
    for (let i = 0; i < data.length; i += 10_000) src.write(data.subarray(i, i + 10_000));
    src.end();
    expect(await put).toEqual({ size: data.length });
    const parts = fake.requests.filter((r) => r.method === 'PUT' && r.query.partNumber);
    expect(parts.map((r) => [r.query.partNumber, r.headers['content-length']])).toEqual([
      ['1', String(PART)],
      ['2', String(PART)],
      ['3', String(PART)],
      ['4', '100'],
    ]);
    expect(fake.objects.get('gw/content/videos/big.mp4')!.data.equals(data)).toBe(true);
    expect(fake.openUploads).toBe(0);
  });

  it('a source failing after the first part aborts the multipart upload: no object, nothing left open', async () => {
    async function* failing() {
      yield randomBytes(PART + 10);
      throw new Error('upstream broke');
    }
    await expect(store.put('videos/broken.mp4', Readable.from(failing()))).rejects.toThrow('upstream broke');
    expect(fake.requests.some((r) => r.method === 'DELETE' && r.query.uploadId)).toBe(true);
    expect(fake.openUploads).toBe(0);
    expect(fake.objects.has('gw/content/videos/broken.mp4')).toBe(false);
  });

  it('a Range read is a GetObject with that Range', async () => {
    await store.put('videos/r.mp4', Buffer.from('0123456789'));
    fake.requests.splice(0);
    expect((await readAll(store.open('videos/r.mp4', { start: 2, end: 5 }))).toString()).toBe('2345');
    expect(fake.requests).toEqual([expect.objectContaining({ method: 'GET', path: '/videos-bucket/gw/content/videos/r.mp4' })]);
    expect(fake.requests[0]!.headers.range).toBe('bytes=2-5');
  });

  it('wrong credentials fail with the service error and never show the secret', async () => {
    const secret = 'wrong-secret-value-0123456789';
    const bad = storeOn(fake, { accessKeyId: 'AKIAOTHER', secretAccessKey: secret });
    const err = (await bad.put('videos/x.mp4', Buffer.from('x')).catch((e: Error) => e)) as Error;
    const headErr = (await bad.stat('videos/a.mp4').catch((e: Error) => e)) as Error & { $metadata: { httpStatusCode: number } };
    bad.close();
    expect(err.name).toBe('InvalidAccessKeyId');
    expect(headErr.$metadata.httpStatusCode).toBe(403);
    for (const e of [err, headErr]) expect(`${e.message} ${e.stack} ${JSON.stringify(e)}`).not.toContain(secret);
    expect(JSON.stringify(fake.requests)).not.toContain(secret);
  });
});
