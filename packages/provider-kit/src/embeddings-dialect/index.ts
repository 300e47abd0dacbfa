export { OpenAiEmbeddingsModel } from './openai-embeddings-model';
