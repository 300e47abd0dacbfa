import type { Page } from 'playwright-core';
import { ALPHA_KEY, BETA_KEY, startTestGateway, type TestGateway } from '../support/test-gateway';
import { describeWithBrowser, screenshot } from './browser';
import { streamText, useDashboardSession } from './dashboard-session';

/**
 * The Batches page in Chromium against a started gateway running batches over the simulator: a batch made with the
 * API shows in the list of its own account only, with its progress, and its output and error files download with the
 * key (as does a message batch's results).
 */
const WAIT = { timeout: 90_000 };

describeWithBrowser('the dashboard Batches page in a browser', () => {
  jest.setTimeout(240_000);
  let gw: TestGateway;
  let page: Page;
  let errors: string[];

  /** an object the gateway made: a file, a batch (only the id is read) */
  const api = async (key: string, path: string, init: RequestInit = {}): Promise<{ id: string }> => {
    const res = await fetch(gw.url + path, { ...init, headers: { Authorization: `Bearer ${key}`, ...init.headers } });
    expect(res.status).toBe(200);
    return (await res.json()) as { id: string };
  };
  const postJson = (key: string, path: string, body: unknown) =>
    api(key, path, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
  const chatLine = (customId: string, extra: Record<string, unknown> = {}) =>
    JSON.stringify({
      custom_id: customId,
      method: 'POST',
      url: '/v1/chat/completions',
      body: { model: 'sim-chat', messages: [{ role: 'user', content: `question ${customId}` }], ...extra },
    });
  /** An OpenAI batch of the key's account, from an uploaded JSONL file. */
  const openAiBatch = async (key: string, lines: string[]) => {
    const form = new FormData();
    form.append('purpose', 'batch');
    form.append('file', new Blob([lines.join('\n') + '\n']), 'batch.jsonl');
    const file = await api(key, '/v1/files', { method: 'POST', body: form });
    return postJson(key, '/v1/batches', { input_file_id: file.id, endpoint: '/v1/chat/completions', completion_window: '24h' });
  };

  const ui = useDashboardSession(async () => {
    gw = await startTestGateway({ env: { batches: { intervalMs: 50 } } });
    await gw.startBackground(); // the batch runner
    return gw;
  });
  const { nav, signIn } = ui;
  beforeEach(() => {
    ({ page, errors } = ui);
  });

  it("lists the account's batches of both formats with their progress; the output, error and results files download", async () => {
    const mine = await openAiBatch(BETA_KEY, [
      chatLine('fine'),
      // passes the schema; sim-chat's efforts stop at "high", which only the call itself checks: an error-file line
      chatLine('refused', { reasoning_effort: 'xhigh' }),
    ]);
    const theirs = await openAiBatch(ALPHA_KEY, [chatLine('other account')]);
    const messages = await postJson(BETA_KEY, '/v1/messages/batches', {
      requests: [{ custom_id: 'm1', params: { model: 'claude-sonnet-4-5', max_tokens: 64, messages: [{ role: 'user', content: 'hi' }] } }],
    });

    await signIn(BETA_KEY);
    await nav('Batches');
    const table = page.getByRole('table', { name: 'Batches' });
    // the page polls while a batch runs: the rows reach their end without a reload
    const row = table.getByRole('row').filter({ hasText: mine.id });
    await row.getByText('2/2 done, 1 failed').waitFor(WAIT);
    await row.getByText('completed').waitFor();
    expect(await row.getByRole('progressbar', { name: `Progress of ${mine.id}` }).getAttribute('value')).toBe('2');
    const messageRow = table.getByRole('row').filter({ hasText: messages.id });
    await messageRow.getByText('1/1 done').waitFor(WAIT);
    await messageRow.getByText('ended').waitFor();
    expect(await table.getByText(theirs.id).count()).toBe(0);
    await screenshot(page, 'batches');

    const saved = async (name: string) => {
      const [file] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name }).click()]);
      return {
        name: file.suggestedFilename(),
        lines: (await streamText(await file.createReadStream()))
          .trim()
          .split('\n')
          .map((l) => JSON.parse(l)),
      };
    };
    const output = await saved(`Output file of ${mine.id}`);
    expect(output.name).toBe(`${mine.id}_output.jsonl`);
    expect(output.lines.map((l) => [l.custom_id, l.response.status_code])).toEqual([['fine', 200]]);
    const error = await saved(`Error file of ${mine.id}`);
    expect(error.lines.map((l) => [l.custom_id, l.response.status_code])).toEqual([['refused', 400]]);
    const results = await saved(`Results of ${messages.id}`);
    expect(results.lines.map((l) => [l.custom_id, l.result.type])).toEqual([['m1', 'succeeded']]);
    expect(errors).toEqual([]);
  });
});
