import {
  bearerAuth,
  createVideoProvider,
  SOCKETS_ONLY_OPTIONS_SCHEMA,
  type ProviderDescriptor,
  type VideoProvider,
  type VideoProviderConfig,
} from '@gateway/provider-kit';
import { DASHSCOPE_DEFAULT_BASE_URL, DASHSCOPE_REQUEST_ID_HEADERS } from './dashscope-api';
import { describeDashScopeFailure } from './dashscope-error';
import { DashScopeVideoModel } from './dashscope-video-model';

export type DashScopeProviderConfig = VideoProviderConfig;

export type DashScopeProvider = VideoProvider;

/** `options` of a dashscope provider entry. */
export const dashscopeOptionsSchema = SOCKETS_ONLY_OPTIONS_SCHEMA;

export function createDashScopeProvider(config: DashScopeProviderConfig): DashScopeProvider {
  return createVideoProvider(config, {
    defaultBaseUrl: DASHSCOPE_DEFAULT_BASE_URL,
    optionsSchema: dashscopeOptionsSchema,
    authHeaders: bearerAuth,
    requestIdHeaders: DASHSCOPE_REQUEST_ID_HEADERS,
    describeFailure: describeDashScopeFailure,
    model: (http) => new DashScopeVideoModel(http),
  });
}

export const dashscopeProvider: ProviderDescriptor<'dashscope'> = {
  type: 'dashscope',
  optionsSchema: dashscopeOptionsSchema,
  create: (entry) => createDashScopeProvider(entry),
};
