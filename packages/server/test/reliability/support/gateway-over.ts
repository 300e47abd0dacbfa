import type { FakeDialectName } from '@gateway/testkit';
import type { GatewayConfigFile, ProviderConfig } from '../../../src/config';
import type { GatewayEnv } from '../../../src/gateway';
import { startTestGateway, testConfigFile, type TestGateway } from '../../support/test-gateway';

/** The provider type that speaks each fake dialect, and an upstream model name it accepts. */
export const PROVIDER_OF: Record<
  FakeDialectName,
  { type: ProviderConfig['type']; upstreamModel: string; options?: Record<string, unknown> }
> = {
  openai: { type: 'openai', upstreamModel: 'gpt-4o-mini', options: { api: 'chat' } },
  'openai-responses': { type: 'openai', upstreamModel: 'gpt-5-mini', options: { api: 'responses' } },
  anthropic: { type: 'anthropic', upstreamModel: 'claude-sonnet-4-5' },
  gemini: { type: 'google', upstreamModel: 'gemini-2.5-flash' },
};

export interface UpstreamEntry {
  /** provider id and the gateway's model id (`m-<id>`) */
  id: string;
  dialect: FakeDialectName;
  url: string;
  apiKey: string;
  timeouts?: ProviderConfig['timeouts'];
}

export const modelOf = (id: string) => `m-${id}`;

/** A real gateway (listening, PGlite in memory) whose text models `m-<id>` are served by the given upstreams. */
export async function gatewayOver(
  upstreams: UpstreamEntry[],
  opts: { limits?: GatewayConfigFile['limits']; env?: Partial<GatewayEnv>; extraKeys?: GatewayConfigFile['keys'] } = {},
): Promise<TestGateway> {
  const base = testConfigFile();
  return startTestGateway({
    env: opts.env,
    config: testConfigFile({
      providers: [
        ...base.providers,
        ...upstreams.map((u) => ({
          id: u.id,
          type: PROVIDER_OF[u.dialect].type,
          options: PROVIDER_OF[u.dialect].options,
          baseUrl: u.url,
          apiKey: u.apiKey,
          timeouts: u.timeouts,
        })),
      ],
      models: [
        ...base.models,
        ...upstreams.map((u) => ({
          id: modelOf(u.id),
          kind: 'text' as const,
          provider: u.id,
          upstreamModel: PROVIDER_OF[u.dialect].upstreamModel,
        })),
      ],
      limits: opts.limits,
      keys: [...(base.keys ?? []), ...(opts.extraKeys ?? [])],
    }),
  });
}
