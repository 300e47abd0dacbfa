import { startFakeUpstream, type FakeDialectName, type FakeUpstream } from '@gateway/testkit';
import type { GatewayConfigFile, ProviderConfig } from '../../src/config';
import type { GatewayEnv } from '../../src/gateway-env';
import { startTestGateway, testConfigFile, type TestGateway } from './test-gateway';

/** One upstream dialect the matrix covers: a fake server of that dialect behind a provider of that type. */
export interface UpstreamUnderTest {
  name: string;
  type: ProviderConfig['type'];
  dialect: FakeDialectName;
  /** the gateway's model id served by it */
  model: string;
  upstreamModel: string;
  /** the provider entry's `options` */
  options?: Record<string, unknown>;
}

export const UPSTREAMS: UpstreamUnderTest[] = [
  { name: 'openai', type: 'openai', dialect: 'openai', model: 'via-openai', upstreamModel: 'gpt-4o-mini', options: { api: 'chat' } },
  {
    name: 'openai-responses',
    type: 'openai',
    dialect: 'openai-responses',
    model: 'via-openai-responses',
    upstreamModel: 'gpt-5-mini',
    options: { api: 'responses' },
  },
  { name: 'anthropic', type: 'anthropic', dialect: 'anthropic', model: 'via-anthropic', upstreamModel: 'claude-sonnet-4-5' },
  { name: 'google', type: 'google', dialect: 'gemini', model: 'via-google', upstreamModel: 'gemini-2.5-flash' },
  {
    name: 'openai-compatible',
    type: 'openai-compatible',
    dialect: 'openai',
    model: 'via-compatible',
    upstreamModel: 'llama-3.1-8b-instruct',
  },
];

export interface ProviderGateway {
  gw: TestGateway;
  fakes: Record<string, FakeUpstream>;
  stop(): Promise<void>;
}

/**
 * A real gateway whose models are served by fake upstreams, one per entry. Provider timeouts are short
 * so timeout tests stay quick; `configure` may add models (e.g. with several deployments).
 */
export async function startProviderGateway(
  upstreams: UpstreamUnderTest[] = UPSTREAMS,
  configure: (file: GatewayConfigFile) => GatewayConfigFile = (f) => f,
  env: Partial<GatewayEnv> = {},
): Promise<ProviderGateway> {
  const fakes: Record<string, FakeUpstream> = {};
  for (const u of upstreams) fakes[u.name] = await startFakeUpstream(u.dialect);
  const base = testConfigFile();
  const file = testConfigFile({
    providers: [
      ...base.providers,
      ...upstreams.map((u) => ({
        id: u.name,
        type: u.type,
        ...(u.options ? { options: u.options } : {}),
        baseUrl: fakes[u.name]!.url,
        apiKey: fakes[u.name]!.apiKey,
        timeouts: { firstByteMs: 1500, idleMs: 1500 },
      })),
    ],
    models: [
      ...base.models,
      ...upstreams.map((u) => ({ id: u.model, kind: 'text' as const, provider: u.name, upstreamModel: u.upstreamModel })),
    ],
  });
  const gw = await startTestGateway({ config: configure(file), env });
  return {
    gw,
    fakes,
    async stop() {
      await gw.stop();
      await Promise.all(Object.values(fakes).map((f) => f.close()));
    },
  };
}

/** The usage row the gateway wrote for one request id. */
export async function usageRow(gw: TestGateway, requestId: string): Promise<Record<string, unknown>> {
  await gw.usage.flush();
  const row = await gw.db.knex('usage_log').where({ request_id: requestId }).first();
  if (!row) throw new Error(`no usage row for ${requestId}`);
  return row;
}
