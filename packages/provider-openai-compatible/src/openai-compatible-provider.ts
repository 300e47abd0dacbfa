import type { EmbeddingModelPort, RerankModelPort, TextModelPort, TranscriptionModelPort } from '@gateway/provider-kit';
import {
  describeChatFailure,
  OpenAiEmbeddingsModel,
  requireBaseUrl,
  TranscriptionsModel,
  UpstreamClient,
  type ProviderDescriptor,
  type UpstreamTimeouts,
} from '@gateway/provider-kit';
import { JinaRerankModel } from './jina-rerank-model';
import { OpenAiCompatibleChatModel } from './openai-compatible-chat-model';
import { openAiCompatibleOptionsSchema, readCompatibleOptions } from './openai-compatible-options';

export interface OpenAiCompatibleProviderConfig {
  /** the server's base, `/v1` included when the server has it (e.g. http://localhost:11434/v1) */
  baseUrl?: string;
  /** optional: local servers often need none */
  apiKey?: string;
  timeouts?: UpstreamTimeouts;
  options?: Record<string, unknown>;
}

export interface OpenAiCompatibleProvider {
  text: TextModelPort;
  /** `<base>/embeddings` (vLLM, Ollama, LM Studio, TEI, Infinity), asked for float vectors */
  embedding: EmbeddingModelPort;
  /** `<base>/audio/transcriptions` and `/audio/translations` (vLLM, faster-whisper servers, Groq) */
  transcription: TranscriptionModelPort;
  /** `<base>/rerank` in Jina's shape (vLLM, Infinity) */
  rerank: RerankModelPort;
  close(): void;
  drain(): void;
}

export function createOpenAiCompatibleProvider(config: OpenAiCompatibleProviderConfig): OpenAiCompatibleProvider {
  const settings = readCompatibleOptions(config.options);
  const transport = new UpstreamClient({
    baseUrl: requireBaseUrl(config.baseUrl),
    headers: { ...settings.headers, ...(config.apiKey ? { authorization: `Bearer ${config.apiKey}` } : {}) },
    timeouts: config.timeouts,
    requestIdHeaders: settings.requestIdHeaders,
    // Compatible servers send OpenAI's error shape or a looser one; the kit reads both, and 402 as "out of credit".
    describeFailure: describeChatFailure,
  });
  return {
    text: new OpenAiCompatibleChatModel(transport, settings.dialect, settings.chatPath),
    embedding: new OpenAiEmbeddingsModel(transport, { encoding: 'float' }),
    transcription: new TranscriptionsModel(transport),
    rerank: new JinaRerankModel(transport),
    close: () => transport.destroy(),
    drain: () => transport.drain(),
  };
}

export const openAiCompatibleProvider: ProviderDescriptor<'openai-compatible'> = {
  type: 'openai-compatible',
  optionsSchema: openAiCompatibleOptionsSchema,
  create: (entry) => createOpenAiCompatibleProvider(entry),
};
