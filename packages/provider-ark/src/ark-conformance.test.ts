import { describeVideoModelConformance, ManualClock, startFakeArk } from '@gateway/testkit';
import { createArkProvider } from './ark-provider';

describeVideoModelConformance('ark (batched polling)', async () => {
  const clock = new ManualClock();
  const fake = await startFakeArk({ queuedMs: 60, runningMs: 100, now: clock.now });
  const good = createArkProvider({ baseUrl: fake.url, apiKey: fake.apiKey });
  const bad = createArkProvider({ baseUrl: fake.url, apiKey: 'wrong-ark-key' });
  return {
    model: good.video,
    badCredentialsModel: bad.video,
    advance: (ms) => clock.advance(ms),
    // batched status reads go through the list endpoint
    rateLimitNextPoll: (s) => fake.api.failNext('list', 1, { status: 429, retryAfterSeconds: s }),
    rateLimitHasRetryAfter: true,
    fail: { prompt: 'conformance [fail]', code: 'InternalServiceError' },
    holdPrompt: '[hold]',
    reportsQueue: true,
    // the task object states resolution with ratio, duration and framespersecond
    statedShape: ['width', 'height', 'durationSeconds', 'fps'],
    unknownRef: 'cgt-nosuchtask',
    secrets: [fake.apiKey],
    close: async () => {
      good.close();
      bad.close();
      await fake.close();
    },
  };
});
