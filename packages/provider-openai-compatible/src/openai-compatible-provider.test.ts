import { describeTextModelConformance } from '@gateway/testkit';
import { createOpenAiCompatibleProvider } from './openai-compatible-provider';

describeTextModelConformance('openai-compatible', {
  dialect: 'openai',
  make: (t) => createOpenAiCompatibleProvider({ baseUrl: t.url, apiKey: t.apiKey, timeouts: t.timeouts }).text,
});
