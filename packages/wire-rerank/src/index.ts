export { rerankFormat } from './rerank.format';
