import { GoogleGenAI, JobState } from '@google/genai';
import type { TestGateway } from '../support/test-gateway';
import { COMPAT_KEY, startZeroConfigGateway } from './zero-config-gateway';

// Gemini batch mode as a newcomer runs it: @google/genai 3.x with only httpOptions.baseUrl, the zero-config gateway.
let gw: TestGateway;
let ai: GoogleGenAI;
beforeAll(async () => {
  gw = await startZeroConfigGateway();
  await gw.startBackground(); // the batch runner
  // Jest's vm context lacks Node's undici dispatcher: the SDK gets the global fetch
  ai = new GoogleGenAI({ apiKey: COMPAT_KEY, httpOptions: { baseUrl: gw.url, fetch: (url, init) => fetch(url, init) } });
});
afterAll(async () => {
  await gw.stop();
});

it('batches.create with inlined requests, batches.get until it succeeds, the responses in request order', async () => {
  const created = await ai.batches.create({
    model: 'gemini-2.5-flash',
    src: [
      { contents: 'Summarise the first document', metadata: { key: 'doc-1' } },
      { contents: 'Summarise the second document', metadata: { key: 'doc-2' } },
    ],
    config: { displayName: 'summaries' },
  });
  expect(created.name).toMatch(/^batches\//);
  let job = created;
  while (![JobState.JOB_STATE_SUCCEEDED, JobState.JOB_STATE_FAILED, JobState.JOB_STATE_CANCELLED].includes(job.state!)) {
    await new Promise((r) => setTimeout(r, 200));
    job = await ai.batches.get({ name: created.name! });
  }
  expect(job.state).toBe(JobState.JOB_STATE_SUCCEEDED);
  const responses = job.dest!.inlinedResponses!;
  expect(responses.map((r) => r.metadata)).toEqual([{ key: 'doc-1' }, { key: 'doc-2' }]);
  expect(responses[1]!.response!.candidates![0]!.content!.parts![0]!.text).toContain('second document');
});
