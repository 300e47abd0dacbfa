import {
  readOption,
  rejectUnknownOptions,
  requireApiKey,
  requireBaseUrl,
  OpenAiEmbeddingsModel,
  textAndMediaClients,
  TranscriptionsModel,
  type ProviderDescriptor,
  type ProviderEntry,
  type ProviderPorts,
} from '@gateway/provider-kit';
import { OpenAiAutoTextModel } from './openai-auto-text-model';
import { OPENAI_DEFAULT_BASE_URL, OPENAI_REQUEST_ID_HEADERS } from './openai-api';
import { OpenAiChatModel } from './openai-chat-model';
import { describeOpenAiFailure } from './openai-error';
import { OpenAiImageModel } from './openai-image-model';
import { OpenAiModerationModel } from './openai-moderation-model';
import { OpenAiResponsesModel } from './openai-responses-model';
import { OpenAiSpeechModel } from './openai-speech-model';
import { OPENAI_TRANSCRIPTION_DIALECT } from './openai-transcription-dialect';
import { OpenAiVideoModel } from './openai-video-model';

/** `options` of an openai provider entry. */
export const openAiOptionsSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    /** sent as OpenAI-Organization */
    organization: { type: 'string', minLength: 1 },
    /** sent as OpenAI-Project */
    project: { type: 'string', minLength: 1 },
    /**
     * The text API: `chat` (POST /chat/completions, the default, as before) or `responses` (POST /responses:
     * /v1/responses clients are passed through unchanged, reasoning items and hosted tools included).
     */
    api: { enum: ['auto', 'chat', 'responses'] },
  },
} as const;

/** Chat or Responses text, image generations and edits, and Sora (videos API). The base URL includes `/v1`, as the openai SDK takes it. */
export function createOpenAiProvider(config: ProviderEntry): ProviderPorts & Required<Pick<ProviderPorts, 'text' | 'image' | 'video'>> {
  rejectUnknownOptions(config.options, Object.keys(openAiOptionsSchema.properties));
  const apiKey = requireApiKey(config.apiKey);
  const organization = readOption.string(config.options, 'organization');
  const project = readOption.string(config.options, 'project');
  const api = readOption.oneOf(config.options, 'api', ['auto', 'chat', 'responses'] as const, 'auto');
  // Images and videos (multipart, polls, downloads) go through the media client, apart from chat traffic.
  const http = textAndMediaClients({
    baseUrl: requireBaseUrl(config.baseUrl, OPENAI_DEFAULT_BASE_URL),
    headers: {
      authorization: `Bearer ${apiKey}`,
      ...(organization ? { 'openai-organization': organization } : {}),
      ...(project ? { 'openai-project': project } : {}),
    },
    timeouts: config.timeouts,
    requestIdHeaders: OPENAI_REQUEST_ID_HEADERS,
    describeFailure: describeOpenAiFailure,
  });
  return {
    text:
      api === 'responses'
        ? new OpenAiResponsesModel(http.text)
        : api === 'chat'
          ? new OpenAiChatModel(http.text)
          : new OpenAiAutoTextModel(new OpenAiChatModel(http.text), new OpenAiResponsesModel(http.text)),
    image: new OpenAiImageModel(http.media),
    video: new OpenAiVideoModel(http.media),
    embedding: new OpenAiEmbeddingsModel(http.text),
    speech: new OpenAiSpeechModel(http.media),
    transcription: new TranscriptionsModel(http.media, OPENAI_TRANSCRIPTION_DIALECT),
    moderation: new OpenAiModerationModel(http.text),
    close: http.close,
    drain: http.drain,
  };
}

export const openAiProvider: ProviderDescriptor<'openai'> = {
  type: 'openai',
  optionsSchema: openAiOptionsSchema,
  create: (entry) => createOpenAiProvider(entry),
};
