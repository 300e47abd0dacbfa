export {
  openAiCompatibleProvider,
  createOpenAiCompatibleProvider,
  type OpenAiCompatibleProvider,
  type OpenAiCompatibleProviderConfig,
} from './openai-compatible-provider';
export { openAiCompatibleOptionsSchema } from './openai-compatible-options';
