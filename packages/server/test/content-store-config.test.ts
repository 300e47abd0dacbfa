import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import request from 'supertest';
import { startFakeS3, type FakeS3 } from '@gateway/testkit';
import { bootstrapConfigKeys } from '../src/bootstrap';
import { buildConfig } from '../src/config';
import { parseContentStore } from '../src/content-store-config';
import { s3EnvFrom } from '../src/gateway-env';
import { createGateway, type Gateway } from '../src/gateway';
import { createLogger } from '@gateway/observability';
import { startupFailure } from '../src/startup-checks';
import { BETA_KEY, inMemoryGatewayEnv, testConfigFile } from './support/test-gateway';
import { waitForTask } from './support/video-gateways';

describe('CONTENT_STORE', () => {
  it('file by default, postgres, or an S3 bucket and prefix with its companions', () => {
    expect(parseContentStore(undefined, {})).toEqual({ kind: 'file' });
    expect(parseContentStore('file', {})).toEqual({ kind: 'file' });
    expect(parseContentStore('postgres', {})).toEqual({ kind: 'postgres' });
    expect(parseContentStore('s3://media/gw/content/', {})).toEqual({
      kind: 's3',
      bucket: 'media',
      prefix: 'gw/content',
      endpoint: undefined,
      region: 'us-east-1',
      forcePathStyle: false,
      credentials: undefined,
    });
    const env = { S3_ENDPOINT: 'http://minio:9000', AWS_REGION: 'eu-west-1', AWS_ACCESS_KEY_ID: 'AKIA1', AWS_SECRET_ACCESS_KEY: 'shh' };
    expect(parseContentStore('s3://media', s3EnvFrom(env))).toMatchObject({
      prefix: '',
      endpoint: 'http://minio:9000',
      region: 'eu-west-1',
      forcePathStyle: true, // a custom endpoint (MinIO, Ceph) defaults to path-style
      credentials: { accessKeyId: 'AKIA1', secretAccessKey: 'shh' },
    });
    expect(parseContentStore('s3://media', s3EnvFrom({ ...env, S3_FORCE_PATH_STYLE: 'false' }))).toMatchObject({ forcePathStyle: false });
  });

  it.each([
    ['nfs://server/share', {}, /expected file, postgres or s3:\/\/bucket\/prefix/],
    ['s3://AKIAXX:very-secret-value@media/gw', {}, /credentials go in AWS_ACCESS_KEY_ID/],
    ['s3://Bad_Bucket/gw', {}, /bucket name/],
    ['s3://media/gw', { AWS_ACCESS_KEY_ID: 'AKIA1' }, /must be set together/],
    ['s3://media/gw', { S3_ENDPOINT: 'minio:9000' }, /S3_ENDPOINT must be an http\(s\) URL/],
    ['s3://media/gw', { S3_FORCE_PATH_STYLE: 'yes' }, /S3_FORCE_PATH_STYLE must be true or false/],
  ])('%s with %j stops start-up with one line naming the problem', (value, env, why) => {
    let failure: ReturnType<typeof startupFailure> | undefined;
    try {
      parseContentStore(value, s3EnvFrom(env));
    } catch (e) {
      failure = startupFailure(e);
    }
    expect(failure).toEqual({ message: expect.stringMatching(why), cause: 'content_store_invalid' });
    expect(failure!.message).not.toContain('very-secret-value');
  });
});

describe('CONTENT_STORE=s3://... end to end (fake S3 on 127.0.0.1)', () => {
  let fake: FakeS3;
  let gw: Gateway;
  let dataDir: string;
  const lines: string[] = [];

  beforeAll(async () => {
    fake = await startFakeS3({ bucket: 'gateway-media' });
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'gw-s3-'));
    const stream = new PassThrough();
    stream.on('data', (l: Buffer) => lines.push(l.toString()));
    const config = buildConfig(
      '(test)',
      testConfigFile({ providers: [{ id: 'sim', type: 'simulator', options: { queuedMs: 50, videoLatencyMs: 100 } }] }),
    );
    gw = await createGateway(
      await inMemoryGatewayEnv({
        dataDir,
        contentStore: 's3://gateway-media/prod/content',
        s3: s3EnvFrom({
          S3_ENDPOINT: fake.url,
          AWS_REGION: 'us-east-1',
          AWS_ACCESS_KEY_ID: fake.accessKeyId,
          AWS_SECRET_ACCESS_KEY: fake.secretAccessKey,
        }),
      }),
      { config, logger: createLogger('debug', { stream, format: 'json' }) },
    );
    await bootstrapConfigKeys(gw.stores, gw.config);
    await gw.startBackground();
  });
  afterAll(async () => {
    await gw.close();
    await fake.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('a finished video lands in the bucket under the prefix and downloads through the gateway, Range included', async () => {
    const auth = { Authorization: `Bearer ${BETA_KEY}` };
    const created = await request(gw.app).post('/v1/videos').set(auth).send({ model: 'sim-video-2.0', prompt: 'a', seconds: '4' });
    expect(await waitForTask(gw.app, created.body.id, BETA_KEY)).toBe('succeeded');
    const keys = [...fake.objects.keys()];
    expect(keys.some((k) => k.startsWith('prod/content/videos/') && k.endsWith('.mp4'))).toBe(true);

    const part = await request(gw.app).get(`/v1/videos/${created.body.id}/content`).set(auth).set('Range', 'bytes=0-7').buffer(true);
    expect(part.status).toBe(206);
    const stored = fake.objects.get(keys.find((k) => k.endsWith('.mp4'))!)!.data;
    expect(Buffer.from(part.body).equals(stored.subarray(0, 8))).toBe(true);
    expect(fake.requests.some((r) => r.method === 'GET' && r.headers.range === 'bytes=0-7')).toBe(true);
  });

  it('logs where the content lives, never the credentials', () => {
    expect(lines.join('')).toContain(`"store":"s3://gateway-media/prod/content at ${new URL(fake.url).host}"`);
    expect(lines.join('')).not.toContain(fake.secretAccessKey);
  });
});
