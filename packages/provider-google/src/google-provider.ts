import {
  readOption,
  rejectUnknownOptions,
  requireApiKey,
  requireBaseUrl,
  textAndMediaClients,
  type ProviderDescriptor,
  type ProviderEntry,
  type ProviderPorts,
} from '@gateway/provider-kit';
import { GOOGLE_DEFAULT_BASE_URL, GOOGLE_REQUEST_ID_HEADERS } from './google-api';
import { GoogleChatModel } from './google-chat-model';
import { describeGoogleFailure } from './google-error';
import { GoogleEmbeddingModel } from './google-embedding-model';
import { GoogleImageModel } from './google-image-model';
import { GoogleVideoModel } from './google-video-model';

/** `options` of a google provider entry. */
export const googleOptionsSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    /** path segment of the API version (default v1beta) */
    apiVersion: { type: 'string', minLength: 1 },
    /** how response schemas are sent: responseJsonSchema (default) or the OpenAPI subset responseSchema */
    schemaDialect: { enum: ['json-schema', 'openapi'] },
    /** thinkingBudget (default) or thinkingLevel (Gemini 3) */
    thinkingStyle: { enum: ['budget', 'level'] },
    /** thoughtSignature sent with a replayed function call that has none */
    fallbackThoughtSignature: { type: 'string', minLength: 1 },
    /** Veo's personGeneration for every video of this provider (unset: the API's default) */
    veoPersonGeneration: { enum: ['allow_all', 'allow_adult', 'dont_allow'] },
  },
} as const;

/**
 * Gemini text, Gemini image output (generateContent → inlineData) and Veo (predictLongRunning). The base URL is
 * without `/v1beta`, as the @google/genai SDK takes it.
 */
export function createGoogleProvider(config: ProviderEntry): ProviderPorts & Required<Pick<ProviderPorts, 'text' | 'image' | 'video'>> {
  const o = config.options;
  rejectUnknownOptions(o, Object.keys(googleOptionsSchema.properties));
  const apiKey = requireApiKey(config.apiKey);
  // Video calls (polls, downloads) go through the media client, so a burst of polling never queues chat requests.
  const http = textAndMediaClients({
    baseUrl: requireBaseUrl(config.baseUrl, GOOGLE_DEFAULT_BASE_URL),
    headers: { 'x-goog-api-key': apiKey },
    timeouts: config.timeouts,
    requestIdHeaders: GOOGLE_REQUEST_ID_HEADERS,
    describeFailure: describeGoogleFailure,
  });
  const apiVersion = readOption.string(o, 'apiVersion') ?? 'v1beta';
  const model = new GoogleChatModel(http.text, {
    apiVersion,
    schemaDialect: readOption.oneOf(o, 'schemaDialect', ['json-schema', 'openapi'] as const, 'json-schema'),
    thinkingStyle: readOption.oneOf(o, 'thinkingStyle', ['budget', 'level'] as const, 'budget'),
    fallbackThoughtSignature: readOption.string(o, 'fallbackThoughtSignature'),
  });
  return {
    text: model,
    image: new GoogleImageModel(http.text, apiVersion),
    embedding: new GoogleEmbeddingModel(http.text, apiVersion),
    video: new GoogleVideoModel(http.media, apiVersion, {
      personGeneration:
        o?.veoPersonGeneration === undefined
          ? undefined
          : readOption.oneOf(o, 'veoPersonGeneration', ['allow_all', 'allow_adult', 'dont_allow'] as const, 'allow_adult'),
    }),
    close: http.close,
    drain: http.drain,
  };
}

export const googleProvider: ProviderDescriptor<'google'> = {
  type: 'google',
  optionsSchema: googleOptionsSchema,
  create: (entry) => createGoogleProvider(entry),
};
