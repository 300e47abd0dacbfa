export { openAiEmbeddingsFormat } from './embeddings.format';
