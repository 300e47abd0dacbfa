import {
  bearerAuth,
  createVideoProvider,
  SOCKETS_ONLY_OPTIONS_SCHEMA,
  type ProviderDescriptor,
  type VideoProvider,
  type VideoProviderConfig,
} from '@gateway/provider-kit';
import { MINIMAX_DEFAULT_BASE_URL, MINIMAX_REQUEST_ID_HEADERS } from './minimax-api';
import { describeMiniMaxFailure } from './minimax-error';
import { MiniMaxVideoModel } from './minimax-video-model';

export type MiniMaxProviderConfig = VideoProviderConfig;

export type MiniMaxProvider = VideoProvider;

/** `options` of a minimax provider entry. */
export const minimaxOptionsSchema = SOCKETS_ONLY_OPTIONS_SCHEMA;

export function createMiniMaxProvider(config: MiniMaxProviderConfig): MiniMaxProvider {
  return createVideoProvider(config, {
    defaultBaseUrl: MINIMAX_DEFAULT_BASE_URL,
    optionsSchema: minimaxOptionsSchema,
    authHeaders: bearerAuth,
    requestIdHeaders: MINIMAX_REQUEST_ID_HEADERS,
    describeFailure: describeMiniMaxFailure,
    model: (http) => new MiniMaxVideoModel(http),
  });
}

export const minimaxProvider: ProviderDescriptor<'minimax'> = {
  type: 'minimax',
  optionsSchema: minimaxOptionsSchema,
  create: (entry) => createMiniMaxProvider(entry),
};
