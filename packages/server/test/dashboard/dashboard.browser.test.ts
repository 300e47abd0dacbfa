import type { Page } from 'playwright-core';
import { ALPHA_KEY, BETA_KEY, startTestGateway, type TestGateway } from '../support/test-gateway';
import { describeWithBrowser, screenshot, mediaDuration } from './browser';
import { streamText, useDashboardSession } from './dashboard-session';

/**
 * The dashboard in Debian's Chromium against a started gateway, driven by the accessible names of issue 19: an admin
 * creates a key, the key's call shows in Usage, a video made in the Playground completes and plays on its task page,
 * the revoked key is refused; an account key sees its own account only. The Playground's embeddings panel scores
 * related texts above unrelated ones, and its audio panel plays speech and transcribes it back to the spoken words.
 */
const ADMIN = 'sk-admin-dashboard-0001';
const WAIT = { timeout: 90_000 };

describeWithBrowser('the dashboard in a browser', () => {
  jest.setTimeout(240_000);
  let gw: TestGateway;
  let page: Page;
  let errors: string[];

  const api = (key: string, path: string, body?: unknown) =>
    fetch(gw.url + path, {
      method: body ? 'POST' : 'GET',
      headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
      body: body ? JSON.stringify(body) : undefined,
    });
  const chat = (key: string) =>
    api(key, '/v1/chat/completions', { model: 'sim-chat', messages: [{ role: 'user', content: 'hello there' }] });

  const ui = useDashboardSession(async () => {
    gw = await startTestGateway({ env: { adminKey: ADMIN } });
    await gw.startBackground(); // the task worker: videos render
    return gw;
  });
  const { nav, signIn } = ui;
  beforeEach(() => {
    ({ page, errors } = ui);
  });

  it('admin: create a key, find its call in Usage, make a video that plays, revoke the key', async () => {
    await signIn(ADMIN);
    await page.getByRole('heading', { name: 'Overview' }).waitFor();
    // the key is in sessionStorage only: never in a URL, localStorage or a cookie (page expressions: no DOM types here)
    expect(await page.evaluate<string>('location.href')).not.toContain(ADMIN);
    expect(await page.evaluate<string>('JSON.stringify(sessionStorage)')).toContain(ADMIN);
    expect(await page.evaluate<string>('JSON.stringify(localStorage) + document.cookie')).not.toContain(ADMIN);

    await nav('Keys');
    await page.getByRole('button', { name: 'Create key' }).click();
    await page.getByLabel('Name', { exact: true }).fill('browser test key');
    await page.getByLabel('Account', { exact: true }).fill('alpha');
    await page.getByLabel('Group', { exact: true }).fill('default');
    await page.getByRole('button', { name: 'Create', exact: true }).click();
    const newKey = (await page.getByLabel('New key').textContent())!.trim();
    expect(newKey).toMatch(/^sk-/);
    const row = page.getByRole('row').filter({ hasText: 'browser test key' });
    await row.waitFor();
    await screenshot(page, 'keys');

    const call = await chat(newKey);
    expect(call.status).toBe(200);
    const requestId = call.headers.get('x-request-id')!;
    await gw.usage.flush();

    await nav('Usage');
    const log = page.getByRole('table', { name: 'Request log' });
    await log.getByText(requestId).waitFor(WAIT);
    await screenshot(page, 'usage');
    // the CSV export is the gateway's, fetched with the key and saved from a blob
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export CSV' }).click()]);
    const csv = await streamText(await download.createReadStream());
    expect(csv.split('\r\n')[0]).toMatch(/^id,created_at,account,key_id,request_id,/);
    expect(csv).toContain(requestId);
    // a filter the call does not match hides it
    await page.getByLabel('Status', { exact: true }).selectOption('error');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await page.getByText('No requests match.').waitFor(WAIT);

    // the admin key is not an API key: the Playground and Tasks act with the key just made
    await nav('Keys');
    await page.getByRole('button', { name: 'Create key' }).click();
    await page.getByLabel('Name', { exact: true }).fill('playground key');
    await page.getByLabel('Account', { exact: true }).fill('alpha');
    await page.getByLabel('Group', { exact: true }).fill('default');
    await page.getByRole('button', { name: 'Create', exact: true }).click();
    await page.getByLabel('New key').filter({ hasNotText: newKey }).waitFor();
    const playgroundKey = (await page.getByLabel('New key').textContent())!.trim();
    await page.getByRole('button', { name: 'Use this key for Tasks and Playground' }).click();

    await nav('Playground');
    await page.getByLabel('Message', { exact: true }).fill('say something');
    await page.getByRole('button', { name: 'Send' }).click();
    await page.getByLabel('Reply').filter({ hasText: /\S/ }).waitFor(WAIT);
    await page.getByLabel('Image prompt').fill('a lighthouse at dusk');
    await page.getByRole('button', { name: 'Generate image' }).click();
    await page.getByRole('img', { name: 'Generated image 1' }).waitFor(WAIT);

    await page.getByLabel('Video model').selectOption('sim-video-2.0-fast');
    await page.getByLabel('Video prompt').fill('a red ball bouncing');
    await page.getByLabel('Seconds').selectOption('4');
    await page.getByRole('button', { name: 'Create video' }).click();
    await page
      .getByTestId('video-status')
      .filter({ hasText: /^completed$/ })
      .waitFor(WAIT);
    await screenshot(page, 'playground');
    const taskLink = page.getByRole('status', { name: 'Video task' }).getByRole('link');
    const taskId = (await taskLink.textContent())!;
    await taskLink.click();

    const video = page.locator('video');
    await video.waitFor(WAIT);
    const duration = await mediaDuration(video);
    const task = (await (await api(playgroundKey, `/v1/videos/${taskId}`)).json()) as { status: string; seconds: string };
    expect(task.status).toBe('completed');
    expect(await page.getByTestId('task-seconds').textContent()).toBe(task.seconds);
    // the container's duration may differ from the nominal seconds by a frame or an audio packet
    expect(Math.abs(duration - Number(task.seconds))).toBeLessThan(0.1);
    await screenshot(page, 'task');

    await nav('Tasks');
    await page.getByRole('table', { name: 'Video tasks' }).getByRole('link', { name: taskId }).waitFor(WAIT);
    await screenshot(page, 'tasks');

    await nav('Keys');
    const first = page.getByRole('row').filter({ hasText: 'browser test key' });
    await first.getByRole('button', { name: 'Revoke' }).click();
    await first.getByRole('button', { name: 'Confirm revoke' }).click();
    await first.getByText('revoked').waitFor();
    expect((await chat(newKey)).status).toBe(401);

    await nav('Accounts');
    await page
      .getByRole('row')
      .filter({ has: page.getByRole('cell', { name: 'alpha', exact: true }) })
      .first()
      .waitFor();
    await screenshot(page, 'accounts');
    await nav('Models');
    await page.getByRole('table', { name: 'Catalogue' }).getByRole('cell', { name: 'sim-chat', exact: true }).waitFor();
    await screenshot(page, 'models');
    await nav('Overview');
    await page.getByRole('figure', { name: 'Requests and errors' }).locator('.recharts-bar-rectangle').first().waitFor(WAIT);
    await page.getByRole('table', { name: 'Circuit breakers' }).getByRole('cell', { name: 'closed' }).first().waitFor(WAIT);
    await screenshot(page, 'overview');

    expect(errors).toEqual([]);
  });

  it('an account key sees its own account only', async () => {
    const alphaCall = await chat(ALPHA_KEY);
    const betaCall = await chat(BETA_KEY);
    await gw.usage.flush();
    await signIn(BETA_KEY);
    await page.getByText('Account key').waitFor();

    await nav('Usage');
    const log = page.getByRole('table', { name: 'Request log' });
    await log.getByText(betaCall.headers.get('x-request-id')!).waitFor(WAIT);
    expect(await log.getByText(alphaCall.headers.get('x-request-id')!).count()).toBe(0);
    expect(await log.getByRole('columnheader', { name: 'Account' }).count()).toBe(0);
    await screenshot(page, 'account-usage');

    // BETA_KEY is a config-file key, so an account admin: its own keys, no platform pages
    const main = page.getByRole('navigation', { name: 'Main' });
    expect(await main.getByRole('link', { name: 'Accounts', exact: true }).count()).toBe(0);
    await nav('Keys');
    const keys = page.getByRole('table', { name: 'Keys' });
    await keys.getByRole('row').nth(1).waitFor();
    expect(await keys.getByRole('columnheader', { name: 'Account' }).count()).toBe(0);
    await page.goto(`${gw.url}/dashboard/accounts`);
    await page.getByText('This page is not for this key.').waitFor();

    await nav('Tasks');
    await page.getByRole('table', { name: 'Video tasks' }).waitFor();
    expect(errors).toEqual([]);
  });
  it('playground: related texts are more similar than unrelated ones', async () => {
    await signIn(BETA_KEY);
    await nav('Playground');
    const panel = page.getByRole('form', { name: 'Embeddings' });
    await panel.getByLabel('Embedding model', { exact: true }).selectOption('sim-embed');
    await panel.getByLabel('First text', { exact: true }).fill('The cat sat on the warm mat by the kitchen window.');
    await panel.getByLabel('Second text', { exact: true }).fill('A cat was sitting on a warm mat near the window.');
    await panel.getByRole('button', { name: 'Compare', exact: true }).click();
    const similarity = panel.getByLabel('Similarity', { exact: true });
    await similarity.waitFor(WAIT);
    const related = Number(await similarity.textContent());
    expect(await panel.getByLabel('Vector size', { exact: true }).textContent()).toBe('1536');

    await panel.getByLabel('Second text', { exact: true }).fill('Quarterly bond yields rose after the central bank meeting.');
    await panel.getByRole('button', { name: 'Compare', exact: true }).click();
    // the answer replaces the first one: wait for a number other than the related texts'
    await similarity.filter({ hasNotText: related.toFixed(4) }).waitFor(WAIT);
    const unrelated = Number(await similarity.textContent());
    expect(related).toBeGreaterThan(unrelated);
    expect(related).toBeGreaterThan(0.3);
    await screenshot(page, 'playground-embeddings');
    expect(errors).toEqual([]);
  });

  it('playground: speech plays, and transcribes back to the spoken words, as does an uploaded file', async () => {
    await signIn(BETA_KEY);
    await nav('Playground');
    const panel = page.getByRole('form', { name: 'Audio' });
    const words = 'the quick brown fox jumps over the lazy dog';
    await panel.getByLabel('Speech model', { exact: true }).selectOption('sim-speech');
    await panel.getByLabel('Text to speak', { exact: true }).fill(words);
    await panel.getByLabel('Voice', { exact: true }).selectOption('nova');
    await panel.getByLabel('Audio format', { exact: true }).selectOption('mp3');
    await panel.getByRole('button', { name: 'Speak', exact: true }).click();
    const audio = panel.getByLabel('Spoken audio', { exact: true });
    await audio.waitFor(WAIT);
    // the simulator speaks 60 ms a character; mp3 adds an encoder delay of a few frames
    expect(Math.abs((await mediaDuration(audio)) - words.length * 0.06)).toBeLessThan(0.2);

    await panel.getByLabel('Transcription model', { exact: true }).selectOption('sim-transcribe');
    await panel.getByRole('button', { name: 'Transcribe', exact: true }).click();
    const transcript = panel.getByLabel('Transcript', { exact: true });
    await transcript.filter({ hasText: /\S/ }).waitFor(WAIT);
    expect(await transcript.textContent()).toBe(words);
    await screenshot(page, 'playground-audio');

    const upload = await api(BETA_KEY, '/v1/audio/speech', {
      model: 'sim-speech',
      input: 'an uploaded file',
      voice: 'alloy',
      response_format: 'wav',
    });
    expect(upload.status).toBe(200);
    await panel
      .getByLabel('Audio file to transcribe', { exact: true })
      .setInputFiles({ name: 'upload.wav', mimeType: 'audio/wav', buffer: Buffer.from(await upload.arrayBuffer()) });
    await panel.getByRole('button', { name: 'Transcribe', exact: true }).click();
    await transcript.filter({ hasText: 'an uploaded file' }).waitFor(WAIT);
    expect(errors).toEqual([]);
  });
});
