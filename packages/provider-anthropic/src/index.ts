export {
  anthropicProvider,
  createAnthropicProvider,
  anthropicOptionsSchema,
  type AnthropicProvider,
  type AnthropicProviderConfig,
} from './anthropic-provider';
