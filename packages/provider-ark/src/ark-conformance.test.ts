import { describeVideoModelConformance, fakeVideoConformanceBase } from '@gateway/testkit';
import { startFakeArk } from './testing';
import { arkProvider } from './ark-provider';

describeVideoModelConformance('ark (batched polling)', async () => {
  const { fake, base } = await fakeVideoConformanceBase(
    (clock) => startFakeArk({ queuedMs: 60, runningMs: 100, now: clock.now }),
    (f, apiKey = f.apiKey) => arkProvider.create({ baseUrl: f.url, apiKey }),
    'wrong-ark-key',
  );
  return {
    ...base,
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
  };
});
