import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import type { SpanExporter } from '@opentelemetry/sdk-trace-base';
import request from 'supertest';
import { bootstrapConfigKeys } from '../../src/bootstrap';
import { buildConfig, type GatewayConfigFile } from '../../src/config';
import { DEFAULT_CONFIG } from '../../src/default-config';
import { createGateway, type Gateway, type GatewayEnv } from '../../src/gateway';
import { envFromProcess } from '../../src/gateway-env';
import { seedEmbeddedStore } from './gateway-process';
import { migratedMemoryImage } from '../../../store-postgres/test/memory-image';
import { createLogger, type Logger } from '@gateway/observability';

/** Two accounts in two groups, as in the foundation issue's example. */
export const ALPHA_KEY = 'sk-alpha-test-key-0001';
export const BETA_KEY = 'sk-beta-test-key-0002';

export function testConfigFile(overrides: Partial<GatewayConfigFile> = {}): GatewayConfigFile {
  return {
    ...DEFAULT_CONFIG,
    providers: [{ id: 'sim', type: 'simulator', options: { queuedMs: 300, videoLatencyMs: 600 } }],
    groups: [
      { name: 'default', models: ['sim-chat', 'sim-image', 'sim-video-2.0', 'sim-video-2.0-fast'] },
      { name: 'vip', models: ['*'] },
    ],
    keys: [
      { key: ALPHA_KEY, account: 'alpha', group: 'default' },
      { key: BETA_KEY, account: 'beta', group: 'vip' },
    ],
    ...overrides,
  };
}

/** One sim-chat completion as this key: a request for the usage, budget and key rules to count. */
export function chatAs(app: Gateway['app'], key: string, content = 'hi') {
  return request(app)
    .post('/v1/chat/completions')
    .set('Authorization', `Bearer ${key}`)
    .send({ model: 'sim-chat', messages: [{ role: 'user', content }] });
}

type ModelPricing = NonNullable<GatewayConfigFile['models'][number]['pricing']>;

/** The config with these models priced (the rest as they were). */
export function withPricing(file: GatewayConfigFile, pricing: Record<string, ModelPricing>): GatewayConfigFile {
  return { ...file, models: file.models.map((m) => (pricing[m.id] ? { ...m, pricing: pricing[m.id] } : m)) };
}

export interface TestGateway extends Gateway {
  url: string;
  dataDir: string;
  stop(): Promise<void>;
}

/**
 * The environment of a gateway made with `createGateway` in a test: in-memory store started from a migrated dump,
 * loopback, a fixed public base URL; `overrides` add or replace fields.
 */
export async function inMemoryGatewayEnv(overrides: Partial<GatewayEnv> = {}): Promise<GatewayEnv> {
  return {
    port: 0,
    host: '127.0.0.1',
    dataDir: '/tmp',
    publicBaseUrl: 'https://gateway.test',
    inMemoryDatabase: true,
    memoryImage: await migratedMemoryImage(),
    ...overrides,
  };
}

/**
 * A real gateway (express app, PGlite in memory unless databaseUrl is given, simulator) listening on
 * 127.0.0.1 with an ephemeral port.
 */
export async function startTestGateway(
  opts: {
    config?: GatewayConfigFile;
    env?: Partial<GatewayEnv>;
    listen?: boolean;
    spanExporter?: SpanExporter;
    clock?: () => Date;
    /** where the gateway logs (errors only, to stdout, unless given) */
    logger?: Logger;
  } = {},
): Promise<TestGateway> {
  const dataDir = opts.env?.dataDir ?? mkdtempSync(path.join(os.tmpdir(), 'gw-test-'));
  // what a test sets in process.env reaches the gateway as it would in production: through the one contract
  const { videoWorker, variables } = envFromProcess(process.env);
  const env: GatewayEnv = {
    videoWorker,
    variables,
    port: 0,
    host: '127.0.0.1',
    dataDir,
    publicBaseUrl: 'https://gateway.test',
    inMemoryDatabase: true,
    ...opts.env,
  };
  // an embedded store in memory starts from a dump of a migrated one, on disk from a migrated copy (as a gateway
  // process in the process lane does)
  if (env.inMemoryDatabase && !env.databaseUrl) env.memoryImage ??= await migratedMemoryImage();
  else if (!env.databaseUrl)
    seedEmbeddedStore({ DATA_DIR: dataDir, ...(env.databaseSchema ? { DATABASE_SCHEMA: env.databaseSchema } : {}) });
  const config = buildConfig('(test)', opts.config ?? testConfigFile(), env.variables);
  const gw = await createGateway(env, {
    config,
    logger: opts.logger ?? createLogger('error'),
    spanExporter: opts.spanExporter,
    clock: opts.clock,
  });
  await bootstrapConfigKeys(gw.stores, gw.config);
  let url = '';
  if (opts.listen !== false) {
    const server = await gw.listen(0, '127.0.0.1');
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }
  let stopped = false;
  return Object.assign(gw, {
    url,
    dataDir,
    // idempotent: a test may stop its gateway itself to observe what stopping leaves, and afterEach stops it again
    async stop() {
      if (stopped) return;
      stopped = true;
      await gw.close();
      if (!opts.env?.dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  });
}

/**
 * The text formats' contract gateway, not listening: the test config plus sim-chat-plain, a text model that cannot
 * think, visible to the vip group (beta) only.
 */
export function startTextContractGateway(): Promise<TestGateway> {
  const models = [...DEFAULT_CONFIG.models, { id: 'sim-chat-plain', kind: 'text' as const, provider: 'sim', reasoningEfforts: [] }];
  return startTestGateway({ listen: false, config: testConfigFile({ models }) });
}
