import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildServer, runGatewayExpectingExit, startGatewayProcess } from '../support/gateway-process';

const chat = (url: string, key: string) =>
  fetch(`${url}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'sim-chat', messages: [{ role: 'user', content: 'hello' }] }),
  });

describe('zero-config start (npm start on the embedded store)', () => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'gw-start-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  // the first start runs what `npm start` runs, the bundle; the restart the TypeScript sources: both read one store
  beforeAll(() => buildServer());
  const afterCleanup: Array<() => Promise<unknown>> = [];
  afterEach(async () => {
    await Promise.all(afterCleanup.splice(0).map((stop) => stop()));
  });

  it('prints a demo key once, serves it, and keeps it across a restart', async () => {
    const first = await startGatewayProcess({ DATA_DIR: dataDir }, { entry: 'built', store: 'fresh' });
    afterCleanup.push(() => first.stop('SIGKILL'));
    const key = /sk-[A-Za-z0-9]+/.exec(first.output())?.[0];
    expect(key).toBeDefined();
    expect((await fetch(`${first.url}/healthz`)).status).toBe(200);
    const res = await chat(first.url, key!);
    expect(res.status).toBe(200);
    expect(((await res.json()) as { choices: Array<{ message: { content: string } }> }).choices[0]!.message.content).toContain('hello');
    // the bundle starts the simulator's image worker thread from its own file
    const image = await fetch(`${first.url}/v1/images/generations`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'sim-image', prompt: 'a red square', size: '256x256', response_format: 'b64_json' }),
    });
    expect(image.status).toBe(200);
    const b64 = ((await image.json()) as { data: Array<{ b64_json: string }> }).data[0]!.b64_json;
    expect(Buffer.from(b64, 'base64').subarray(1, 4).toString()).toBe('PNG');
    expect(await first.stop('SIGTERM')).toBe(0);

    const second = await startGatewayProcess({ DATA_DIR: dataDir });
    try {
      expect(second.output()).not.toMatch(/sk-[A-Za-z0-9]{8,}/);
      expect((await chat(second.url, key!)).status).toBe(200);
      expect((await chat(second.url, 'sk-not-the-demo-key')).status).toBe(401);
    } finally {
      await second.stop();
    }
  });

  it('GATEWAY_DEMO_KEY fixes the demo key', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'gw-start-'));
    const gw = await startGatewayProcess({ DATA_DIR: dir, GATEWAY_DEMO_KEY: 'sk-fixed-demo-1234' });
    try {
      expect(gw.output()).toContain('sk-fixed-demo-1234');
      expect((await chat(gw.url, 'sk-fixed-demo-1234')).status).toBe(200);
    } finally {
      await gw.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('bad config stops start-up naming the file, the field and the problem', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'gw-start-'));
    const file = path.join(dir, 'gateway.json');
    writeFileSync(
      file,
      JSON.stringify({ providers: [{ id: 'sim', type: 'simulator' }], models: [{ id: 'x', kind: 'text', provider: 'nope' }], groups: [] }),
    );
    const { code, output } = await runGatewayExpectingExit({ DATA_DIR: dir, GATEWAY_CONFIG: file });
    rmSync(dir, { recursive: true, force: true });
    expect(code).toBe(1);
    // every line is a JSON object; the reader sees its message
    const messages = output
      .split('\n')
      .filter((l) => l.trim() !== '')
      .map((l) => String(JSON.parse(l).message))
      .join('\n');
    expect(messages).toContain(file);
    expect(messages).toContain('models.0.provider');
    expect(messages).toContain('unknown provider "nope"');
    expect(output).not.toMatch(/\n\s+at /); // no stack trace
  });
});
