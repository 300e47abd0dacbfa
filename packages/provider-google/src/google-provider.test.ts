import { describeTextModelConformance } from '@gateway/testkit';
import { createGoogleProvider } from './google-provider';

describeTextModelConformance('google', {
  dialect: 'gemini',
  make: (t) => createGoogleProvider({ baseUrl: t.url, apiKey: t.apiKey, timeouts: t.timeouts }).text,
});
