import { describeTextModelConformance } from '@gateway/testkit';
import { createOpenAiProvider } from './openai-provider';

describeTextModelConformance('openai', {
  dialect: 'openai',
  make: (t) => createOpenAiProvider({ baseUrl: t.url, apiKey: t.apiKey, timeouts: t.timeouts }).text,
});
