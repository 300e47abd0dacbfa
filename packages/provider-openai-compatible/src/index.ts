export { openAiCompatibleProvider } from './openai-compatible-provider';
