import { describeTextModelConformance } from '@gateway/testkit';
import { createAnthropicProvider } from './anthropic-provider';

describeTextModelConformance('anthropic', {
  dialect: 'anthropic',
  make: (t) => createAnthropicProvider({ baseUrl: t.url, apiKey: t.apiKey, timeouts: t.timeouts }).text,
  reportsReasoningTokens: false,
});
