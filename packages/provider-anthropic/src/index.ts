export { anthropicProvider } from './anthropic-provider';
