import {
  createVideoProvider,
  SOCKETS_ONLY_OPTIONS_SCHEMA,
  type ProviderDescriptor,
  type VideoProvider,
  type VideoProviderConfig,
} from '@gateway/provider-kit';
import { KLING_DEFAULT_BASE_URL, KLING_REQUEST_ID_HEADERS } from './kling-api';
import { KlingTokens, parseKlingKey } from './kling-auth';
import { describeKlingFailure } from './kling-error';
import { KlingVideoModel } from './kling-video-model';

export interface KlingProviderConfig extends VideoProviderConfig {
  /** `ACCESS_KEY:SECRET_KEY`; the base URL without `/v1` (default https://api-singapore.klingai.com) */
  apiKey?: string;
  /** tests: the clock the tokens are signed with */
  now?: () => number;
}

export type KlingProvider = VideoProvider;

/** `options` of a kling provider entry. */
export const klingOptionsSchema = SOCKETS_ONLY_OPTIONS_SCHEMA;

export function createKlingProvider(config: KlingProviderConfig): KlingProvider {
  return createVideoProvider(config, {
    defaultBaseUrl: KLING_DEFAULT_BASE_URL,
    optionsSchema: klingOptionsSchema,
    // no key header: each call carries a JWT signed with the secret key (KlingTokens)
    requestIdHeaders: KLING_REQUEST_ID_HEADERS,
    describeFailure: describeKlingFailure,
    model: (http, apiKey) => {
      const { accessKey, secretKey } = parseKlingKey(apiKey);
      return new KlingVideoModel(http, new KlingTokens(accessKey, secretKey, config.now));
    },
  });
}

export const klingProvider: ProviderDescriptor<'kling'> = {
  type: 'kling',
  optionsSchema: klingOptionsSchema,
  create: (entry) => createKlingProvider(entry),
};
