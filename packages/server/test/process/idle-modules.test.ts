import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import knex from 'knex';
import { describeWithService, eventually } from '@gateway/testkit';
import { buildServer, startGatewayProcess } from '../support/gateway-process';

/**
 * What an idle gateway does not need loads on first use (issue 40): the bundle as `npm start` runs it, with the
 * memory probe of `npm run bench:memory` preloaded, names the npm packages its event loop loaded once it listens.
 * The seams' own tests show each first use still works (S3 store, tracing, ffmpeg, WebSocket, upload, PGlite).
 */
const PROBE = path.resolve(__dirname, '../../../../bench/lib/memory-probe.cjs');
const ON_FIRST_USE = [
  '@aws-sdk/client-s3',
  '@opentelemetry/sdk-trace-node',
  '@opentelemetry/exporter-trace-otlp-http',
  '@ffmpeg-installer/ffmpeg',
  'ws',
  'busboy',
  'multer',
  'ioredis',
];
const EMBEDDED_STORE = ['@electric-sql/pglite', 'knex-pglite'];

const dir = mkdtempSync(path.join(os.tmpdir(), 'gw-idle-modules-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
beforeAll(() => buildServer());

let starts = 0;
async function idlePackages(env: Record<string, string>): Promise<string[]> {
  const out = path.join(dir, `probe-${++starts}.json`);
  const gw = await startGatewayProcess(
    { DATA_DIR: path.join(dir, `data-${starts}`), ...env, NODE_OPTIONS: `--require ${PROBE}`, MEMORY_PROBE_OUT: out },
    { entry: 'built' },
  );
  try {
    gw.proc.kill('SIGUSR2');
    await eventually(() => existsSync(out));
    return (JSON.parse(readFileSync(out, 'utf8')) as { packages: string[] }).packages;
  } finally {
    await gw.stop();
  }
}

describe('the bundle', () => {
  it('is ASCII throughout, so V8 holds its source one byte a character (build-server.cjs escapes the rest)', () => {
    const dist = path.resolve(__dirname, '../../dist');
    const outside = readdirSync(dist)
      .filter((f) => f.endsWith('.js'))
      .flatMap((f) =>
        readFileSync(path.join(dist, f), 'utf8')
          .split('\n')
          .flatMap((line, i) => (/[^\x00-\x7f]/.test(line) ? [`${f}:${i + 1}`] : [])),
      );
    expect(outside).toEqual([]);
  });
});

describe('an idle gateway', () => {
  it('on the embedded store loads none of the modules a feature needs only when used', async () => {
    const loaded = await idlePackages({});
    // the probe sees what is loaded
    expect(loaded).toEqual(expect.arrayContaining(['express', 'knex', 'knex-pglite']));
    expect(loaded.filter((p) => ON_FIRST_USE.includes(p))).toEqual([]);
  });

  it('configured for tracing loads the OpenTelemetry SDK at start, as it needs it', async () => {
    // a port nothing listens on: spans are exported later, in batches, and the start does not wait for them
    const loaded = await idlePackages({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:9' });
    expect(loaded).toEqual(expect.arrayContaining(['@opentelemetry/sdk-trace-node', '@opentelemetry/exporter-trace-otlp-http']));
  });
});

describeWithService('TEST_DATABASE_URL', 'an idle gateway on PostgreSQL', (url) => {
  const schema = `idle_${randomBytes(5).toString('hex')}`;
  afterAll(async () => {
    const admin = knex({ client: 'pg', connection: url });
    await admin.raw(`drop schema if exists "${schema}" cascade`);
    await admin.destroy();
  });

  it('loads neither the embedded store nor the modules a feature needs only when used', async () => {
    const loaded = await idlePackages({ DATABASE_URL: url, DATABASE_SCHEMA: schema });
    expect(loaded).toEqual(expect.arrayContaining(['express', 'knex', 'pg']));
    expect(loaded.filter((p) => [...ON_FIRST_USE, ...EMBEDDED_STORE].includes(p))).toEqual([]);
  });
});
