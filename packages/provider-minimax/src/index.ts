export {
  createMiniMaxProvider,
  minimaxOptionsSchema,
  minimaxProvider,
  type MiniMaxProvider,
  type MiniMaxProviderConfig,
} from './minimax-provider';
