export { minimaxProvider } from './minimax-provider';
