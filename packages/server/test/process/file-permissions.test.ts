/**
 * The gateway's files are its user's alone whatever the umask: a gateway process started under `umask 022` (the
 * usual default, which would leave files world-readable) writes its embedded store, a stored video and a stored
 * image; every directory under DATA_DIR is 0700 and every file 0600 (checked once it stopped: files PGlite creates while
 * it runs are made owner-only within a minute, and DATA_DIR itself is 0700 throughout).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eventually } from '@gateway/testkit';

jest.setTimeout(180_000);

const ROOT = path.resolve(__dirname, '../../../..');
const KEY = 'sk-demo-file-permissions-0001';

function walk(dir: string): Array<{ file: string; mode: number; dir: boolean }> {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const file = path.join(dir, e.name);
    const entry = { file, mode: statSync(file).mode & 0o777, dir: e.isDirectory() };
    return e.isDirectory() ? [entry, ...walk(file)] : [entry];
  });
}

it('keeps DATA_DIR, the embedded store, stored videos and images owner-only under umask 022', async () => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'gw-perms-'));
  const child = spawn('/bin/sh', ['-c', 'umask 022 && exec "$0" --import tsx packages/server/src/main.ts', process.execPath], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      GATEWAY_CONFIG: '',
      WORKERS: '1',
      GATEWAY_DEMO_KEY: KEY,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (out += d));
  const exited = new Promise((resolve) => child.once('exit', resolve));
  try {
    await eventually(() => expect(out).toMatch(/Gateway listening on http:\/\/\S+/), 90_000);
    const url = /Gateway listening on (http:\/\/\S+)/.exec(out)![1];
    const key = KEY;
    const post = (p: string, body: object) =>
      fetch(url + p, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const image = await post('/v1/images/generations', { model: 'sim-image', prompt: 'a cat', response_format: 'url' });
    expect(image.status).toBe(200);
    const video = await post('/v1/videos', { model: 'sim-video-2.0', prompt: 'a cat', seconds: '4', size: '1280x720' });
    expect(video.status).toBe(200);
    const id = ((await video.json()) as { id: string }).id;
    await eventually(async () => {
      const res = await fetch(`${url}/v1/videos/${id}`, { headers: { authorization: `Bearer ${key}` } });
      expect(((await res.json()) as { status: string }).status).toBe('completed');
    }, 60_000);
    const content = await fetch(`${url}/v1/videos/${id}/content`, { headers: { authorization: `Bearer ${key}` } });
    expect(content.status).toBe(200);
    expect(content.headers.get('x-content-type-options')).toBe('nosniff');

    // at rest: the gateway stopped (PGlite sets its own files' modes; the store makes them owner-only as it closes)
    child.kill('SIGTERM');
    await exited;
    const entries = walk(dataDir);
    // the store, a video and an image were written
    expect(entries.some((e) => e.file.includes(`${path.sep}pglite${path.sep}`))).toBe(true);
    expect(entries.filter((e) => !e.dir && !e.file.includes(`${path.sep}pglite${path.sep}`)).length).toBeGreaterThanOrEqual(2);
    expect(statSync(dataDir).mode & 0o777).toBe(0o700);
    const wrong = entries
      .filter((e) => e.mode !== (e.dir ? 0o700 : 0o600))
      .map((e) => `${e.mode.toString(8)} ${path.relative(dataDir, e.file)}`);
    expect(wrong).toEqual([]);
  } finally {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
    rmSync(dataDir, { recursive: true, force: true });
  }
});
