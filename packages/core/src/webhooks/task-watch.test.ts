import type { Principal } from '../auth';
import { GatewayError } from '../errors';
import type { VideoTask } from '../video-task';
import { TaskWatch, type TaskWatchDeps } from './task-watch';

const principal = { accountId: 'a', keyId: 'k', group: 'g' } as Principal;

function setup(extra: Partial<TaskWatchDeps> = {}) {
  let current: Partial<VideoTask> | null = { id: 't', status: 'queued', progress: 0 };
  const listeners = new Set<() => void>();
  const reads = { n: 0 };
  const watch = new TaskWatch({
    ...extra,
    videos: {
      get: async () => {
        reads.n++;
        if (!current) throw new GatewayError('not_found', 'no such task');
        return { ...current } as VideoTask;
      },
    },
    feed: {
      subscribe: (_id, cb) => {
        listeners.add(cb);
        return () => listeners.delete(cb);
      },
    },
    pollMs: 600_000, // never in these tests: only hints wake it
  });
  const change = (patch: Partial<VideoTask> | null) => {
    current = patch && { ...current, ...patch };
    listeners.forEach((l) => l());
  };
  return { watch, change, listeners, reads };
}

/** Resolves once `check` holds, looking again after each turn of the event loop. */
async function until(check: () => boolean): Promise<void> {
  while (!check()) await new Promise((r) => setImmediate(r));
}

describe('TaskWatch', () => {
  it('yields the task, then each change of status or progress, and ends at the terminal state', async () => {
    const { watch, change, listeners } = setup();
    const seen: string[] = [];
    for await (const t of watch.watch(principal, 't', new AbortController().signal)) {
      seen.push(`${t.status}:${t.progress}`);
      if (seen.length === 1) change({ status: 'running' });
      else if (seen.length === 2) {
        change({ progress: 0 }); // no change: nothing yielded
        change({ progress: 50 });
      } else if (seen.length === 3) change({ status: 'succeeded', progress: 100 });
    }
    expect(seen).toEqual(['queued:0', 'running:0', 'running:50', 'succeeded:100']);
    expect(listeners.size).toBe(0);
  });

  it('throws not_found before anything for an unknown task, and stops when the client leaves', async () => {
    const { watch, change, listeners } = setup();
    change(null);
    await expect(watch.watch(principal, 't', new AbortController().signal).next()).rejects.toMatchObject({ reason: 'not_found' });
    const s = setup();
    const abort = new AbortController();
    const it = s.watch.watch(principal, 't', abort.signal);
    expect((await it.next()).value.status).toBe('queued');
    const next = it.next();
    abort.abort();
    expect(await next).toEqual({ done: true, value: undefined });
    expect(listeners.size + s.listeners.size).toBe(0);
  });

  it('shares one change-feed subscription and one re-read per change among all watchers of a task', async () => {
    const { watch, change, listeners, reads } = setup();
    const abort = new AbortController();
    const streams = Array.from({ length: 10 }, () => watch.watch(principal, 't', abort.signal));
    for (const s of streams) expect((await s.next()).value.status).toBe('queued');
    const nexts = streams.map((s) => s.next());
    expect(listeners.size).toBe(1);
    expect(watch.openChannels).toBe(1);
    const before = reads.n;
    change({ status: 'running' });
    for (const n of await Promise.all(nexts)) expect(n.value.status).toBe('running');
    expect(reads.n - before).toBe(1);
    abort.abort();
    await Promise.all(streams.map((s) => s.next()));
    expect(listeners.size).toBe(0);
    expect(watch.openChannels).toBe(0);
    expect(watch.openStreams).toBe(0);
  });

  it('refuses a stream beyond the per-key and per-instance caps with rate_limited, and frees the place on close', async () => {
    const { watch } = setup({ limits: { perKey: 2, perInstance: 3 } });
    const abort = new AbortController();
    const open = (p: Principal) => {
      const s = watch.watch(p, 't', abort.signal);
      return s.next().then(() => s);
    };
    const a1 = await open(principal);
    await open(principal);
    await expect(watch.watch(principal, 't', abort.signal).next()).rejects.toMatchObject({
      reason: 'rate_limited',
      code: 'too_many_event_streams',
    });
    const other = { ...principal, keyId: 'k2' };
    await open(other);
    await expect(watch.watch({ ...principal, keyId: 'k3' }, 't', abort.signal).next()).rejects.toMatchObject({ reason: 'rate_limited' });
    await a1.return(undefined);
    expect(watch.openStreams).toBe(2);
    await open(principal);
    abort.abort();
  });

  it('ends the streams of a key that was revoked, at the next key check', async () => {
    let alive = true;
    const checked: string[] = [];
    const { watch, listeners } = setup({
      keyAlive: async (keyId) => (checked.push(keyId), alive),
      keyCheckMs: 20,
    });
    const abort = new AbortController();
    const mine = watch.watch(principal, 't', abort.signal);
    const others = watch.watch({ ...principal, keyId: 'k2' }, 't', abort.signal);
    await mine.next();
    await others.next();
    await until(() => checked.length >= 2);
    alive = false;
    expect(await mine.next()).toEqual({ done: true, value: undefined });
    expect(await others.next()).toEqual({ done: true, value: undefined });
    expect(listeners.size).toBe(0);
    expect(watch.openStreams).toBe(0);
  });
});
