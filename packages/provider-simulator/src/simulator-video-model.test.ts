import { eventually } from '@gateway/testkit';
import { createWriteStream, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { hash } from './simulated-arguments';
import type { VideoRequest, VideoStatus } from '@gateway/core';
import { probeMedia } from './ffmpeg';
import { SimulatorVideoModel } from './simulator-video-model';
import { renderArgs } from './simulator-video-render';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'sim-video-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const request = (over: Partial<VideoRequest> = {}): VideoRequest & { upstreamModel: string } => ({
  model: 'sim-video-2.0',
  upstreamModel: 'sim-video-2.0',
  prompt: 'a lighthouse at dusk',
  durationSeconds: 4,
  resolution: '720p',
  aspectRatio: '16:9',
  generateAudio: true,
  fps: 24,
  ...over,
});

const until = (done: () => boolean) => eventually(done, 5000, 2);

async function save(status: VideoStatus, name: string): Promise<string> {
  if (status.state !== 'succeeded') throw new Error(`expected success, got ${JSON.stringify(status)}`);
  const file = path.join(dir, name);
  await pipeline(await status.artifact.open(), createWriteStream(file));
  return file;
}

describe('SimulatorVideoModel', () => {
  it('reports queued, then running with progress, then fails on [sim:fail] with a readable message', async () => {
    let now = 1_000_000;
    const sim = new SimulatorVideoModel({ queuedMs: 1000, videoLatencyMs: 2000, dataDir: dir, now: () => now });
    const ref = await sim.start(request({ prompt: 'please [sim:fail] now' }), { taskId: 'taskfail1' });
    expect(await sim.status(ref)).toEqual({ state: 'pending', running: false, progress: 0 });
    now += 1500;
    expect(await sim.status(ref)).toEqual({ state: 'pending', running: true, progress: 25 });
    now += 1500;
    const failed = await sim.status(ref);
    expect(failed).toMatchObject({ state: 'failed', code: 'simulated_failure' });
    expect((failed as { message: string }).message).toContain('[sim:fail]');
  });

  it('renders a real H.264 MP4 of the requested duration, size and fps, with AAC audio and a JPEG thumbnail', async () => {
    const sim = new SimulatorVideoModel({ queuedMs: 0, videoLatencyMs: 0, dataDir: dir });
    const ref = await sim.start(request(), { taskId: 'taskrender1' });
    const [a, b] = await Promise.all([sim.status(ref), sim.status(ref)]); // concurrent polls share one render
    const file = await save(a, 'a.mp4');
    expect(b.state).toBe('succeeded');
    const info = await probeMedia(file);
    expect(info.video).toEqual({ codec: 'h264', width: 1280, height: 720, fps: 24 });
    expect(info.audio?.codec).toBe('aac');
    expect(Math.abs(info.durationSeconds - 4)).toBeLessThan(0.15);
    if (a.state !== 'succeeded') return;
    expect(a.artifact).toMatchObject({ width: 1280, height: 720, durationSeconds: 4, fps: 24 });
    const thumb = await save({ state: 'succeeded', artifact: { ...a.artifact, open: a.artifact.thumbnail!.open } }, 'a.jpg');
    expect(readFileSync(thumb).subarray(0, 2)).toEqual(Buffer.from([0xff, 0xd8]));
    await a.artifact.dispose!();
    expect(readdirSync(path.join(dir, 'simulator', 'videos')).filter((f) => f.startsWith('taskrender1'))).toEqual([]);
  });

  it('portrait without audio at another frame rate; adaptive follows the first frame', async () => {
    const sim = new SimulatorVideoModel({ queuedMs: 0, videoLatencyMs: 0, dataDir: dir });
    const frame = { mediaType: 'image/png' as const, data: new Uint8Array(), width: 720, height: 1280 };
    const ref = await sim.start(
      request({ resolution: '480p', aspectRatio: 'adaptive', firstFrame: frame, generateAudio: false, fps: 30 }),
      { taskId: 'taskrender2' },
    );
    const info = await probeMedia(await save(await sim.status(ref), 'b.mp4'));
    expect(info.video).toEqual({ codec: 'h264', width: 480, height: 854, fps: 30 });
    expect(info.audio).toBeUndefined();
    expect(Math.abs(info.durationSeconds - 4)).toBeLessThan(0.15);
  });

  it('renders no more videos at once than renderConcurrency; a poll aborted while waiting leaves the queue', async () => {
    let active = 0;
    let peak = 0;
    const finish: Array<() => void> = [];
    let released = false; // once set, every render (waiting or yet to start) finishes
    const render = async (_spec: unknown, mp4: string, jpeg: string) => {
      active++;
      peak = Math.max(peak, active);
      if (!released) await new Promise<void>((resolve) => finish.push(resolve));
      writeFileSync(mp4, 'mp4');
      writeFileSync(jpeg, 'jpg');
      active--;
    };
    const sim = new SimulatorVideoModel({ queuedMs: 0, videoLatencyMs: 0, dataDir: dir, renderConcurrency: 2, render });
    const refs = await Promise.all(
      ['slot1', 'slot2', 'slot3', 'slot4'].map((t) => sim.start(request({ prompt: t }), { taskId: `task${t}` })),
    );
    const aborted = new AbortController();
    const polls = refs.slice(0, 3).map((ref) => sim.status(ref));
    const gaveUp = sim.status(refs[3]!, { signal: aborted.signal });
    await until(() => finish.length === 2);
    aborted.abort(new Error('step stopped'));
    await expect(gaveUp).rejects.toThrow('step stopped');
    released = true;
    finish.splice(0).forEach((done) => done());
    expect((await Promise.all(polls)).map((s) => s.state)).toEqual(['succeeded', 'succeeded', 'succeeded']);
    expect(peak).toBe(2);
  });

  it('different prompts render differently', () => {
    const spec = { width: 640, height: 360, durationSeconds: 4, fps: 24, audio: true };
    const a = renderArgs({ ...spec, seed: hash('a cat') }, 'x.mp4').join(' ');
    const b = renderArgs({ ...spec, seed: hash('a dog') }, 'x.mp4').join(' ');
    expect(a).not.toEqual(b);
    expect(a).toContain('libx264');
    expect(a).toContain('ultrafast');
  });

  it('an unknown operation is not_found', async () => {
    const sim = new SimulatorVideoModel({ dataDir: dir });
    await expect(sim.status('sim1.bm90LWpzb24')).rejects.toMatchObject({ reason: 'not_found', code: 'operation_not_found' });
    await expect(sim.status('other')).rejects.toMatchObject({ reason: 'not_found' });
  });
});
