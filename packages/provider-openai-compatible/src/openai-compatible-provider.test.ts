import { describeTextModelConformance } from '@gateway/testkit';
import { createOpenAiCompatibleProvider } from './openai-compatible-provider';

describeTextModelConformance('openai-compatible', {
  dialect: 'openai',
  make: (t) => createOpenAiCompatibleProvider({ baseUrl: t.url, apiKey: t.apiKey, timeouts: t.timeouts }).text,
});

// The opt-in node transport must behave exactly like the axios one: same suite, same fake upstream.
describeTextModelConformance('openai-compatible (transport: node)', {
  dialect: 'openai',
  make: (t) => createOpenAiCompatibleProvider({ baseUrl: t.url, apiKey: t.apiKey, timeouts: t.timeouts, transport: 'node' }).text,
});
