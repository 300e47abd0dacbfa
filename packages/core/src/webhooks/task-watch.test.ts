import type { Principal } from '../auth';
import { GatewayError } from '../errors';
import type { VideoTask } from '../video-task';
import { TaskWatch } from './task-watch';

const principal = { accountId: 'a', keyId: 'k', group: 'g' } as Principal;

function setup() {
  let current: Partial<VideoTask> | null = { id: 't', status: 'queued', progress: 0 };
  const listeners = new Set<() => void>();
  const watch = new TaskWatch({
    videos: {
      get: async () => {
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
  return { watch, change, listeners };
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
});
