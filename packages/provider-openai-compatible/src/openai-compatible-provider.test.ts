import { describeTextModelConformance } from '@gateway/testkit';
import { createOpenAiCompatibleProvider } from './openai-compatible-provider';

describeTextModelConformance('openai-compatible', {
  dialect: 'openai',
  make: (t) => createOpenAiCompatibleProvider({ baseUrl: t.url, apiKey: t.apiKey, timeouts: t.timeouts }).text,
});

// The opt-in axios transport must behave exactly like the default node one: same suite, same fake upstream.
describeTextModelConformance('openai-compatible (transport: axios)', {
  dialect: 'openai',
  make: (t) => createOpenAiCompatibleProvider({ baseUrl: t.url, apiKey: t.apiKey, timeouts: t.timeouts, transport: 'axios' }).text,
});
