export { openAiProvider } from './openai-provider';
