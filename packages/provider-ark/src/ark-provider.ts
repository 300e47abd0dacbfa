import { bearerAuth, readOption, videoProvider } from '@gateway/provider-kit';
import { ARK_DEFAULT_BASE_URL, ARK_REQUEST_ID_HEADERS } from './ark-api';
import { describeArkFailure } from './ark-error';
import { ArkVideoModel } from './ark-video-model';

/** `options` of an ark provider entry (its base URL ends in `/api/v3`, as the Ark SDKs take it). */
const arkOptionsSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    /** read many tasks with one list call (default true) */
    batchPolling: { type: 'boolean' },
    /** ids per list call (default 100, at most 500 are used) */
    maxBatch: { type: 'integer', minimum: 1 },
    /** sockets open to Ark at once (default 64) */
    maxSockets: { type: 'integer', minimum: 1 },
  },
} as const;

export const arkProvider = videoProvider('ark', {
  defaultBaseUrl: ARK_DEFAULT_BASE_URL,
  defaultMaxSockets: 64,
  optionsSchema: arkOptionsSchema,
  authHeaders: bearerAuth,
  requestIdHeaders: ARK_REQUEST_ID_HEADERS,
  describeFailure: describeArkFailure,
  model: (http, _apiKey, o) =>
    new ArkVideoModel(http, {
      batchPolling: readOption.boolean(o, 'batchPolling', true),
      maxBatch: Math.min(500, readOption.positiveInt(o, 'maxBatch', 100)),
    }),
});
