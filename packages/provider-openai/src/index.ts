export {
  openAiProvider,
  createOpenAiProvider,
  openAiOptionsSchema,
  type OpenAiProvider,
  type OpenAiProviderConfig,
} from './openai-provider';
