import { describeVideoModelConformance, fakeVideoConformanceBase } from '@gateway/testkit';
import { startFakeVeo } from './testing';
import { createGoogleProvider } from './google-provider';

describeVideoModelConformance('google (Veo)', async () => {
  const { fake, base } = await fakeVideoConformanceBase(
    (clock) => startFakeVeo({ queuedMs: 0, runningMs: 100, redirectDownloads: true, now: clock.now }),
    (f, apiKey = f.apiKey) => createGoogleProvider({ baseUrl: f.url, apiKey }),
    'wrong-gemini-key',
  );
  return {
    ...base,
    rateLimitNextPoll: (s) => fake.api.failNext('poll', 1, { status: 429, retryAfterSeconds: s }),
    rateLimitHasRetryAfter: true,
    fail: { prompt: 'conformance [fail]', code: 'INVALID_ARGUMENT' },
    // Veo reports no queue: a pending operation is running
    reportsQueue: false,
    // the operation names the sample's URI only: no size, length or frame rate
    statedShape: [],
    request: { upstreamModel: 'veo-3.1-generate-preview' },
    unknownRef: 'models/veo-3.1-generate-preview/operations/nosuch',
    secrets: [fake.apiKey],
  };
});
