import { InMemoryTaskRepository } from '@gateway/testkit';
import type { ReleaseOptions } from '../ports/task-queue.port';
import { ReleaseBatcher } from './release-batcher';

/** A store whose releaseMany records each write and answers "held" for the ids in `held`. */
function store(held: Set<string>) {
  const writes: string[][] = [];
  const tasks = Object.assign(new InMemoryTaskRepository(), {
    async releaseMany(_owner: string, items: Array<{ id: string; opts: ReleaseOptions }>) {
      writes.push(items.map((i) => i.id));
      return new Set(items.map((i) => i.id).filter((id) => held.has(id)));
    },
  });
  return { tasks, writes };
}

const at = { nextPollAt: new Date(0) };

describe('ReleaseBatcher', () => {
  it('gathers concurrent releases into one write and tells each caller whether its lease was held', async () => {
    const { tasks, writes } = store(new Set(['a', 'c']));
    const b = new ReleaseBatcher(tasks, 'w');
    const results = await Promise.all(['a', 'b', 'c'].map((id) => b.release(id, at)));
    expect(results).toEqual([true, false, true]);
    expect(writes).toEqual([['a', 'b', 'c']]);
  });

  it('flushes at maxBatch, and puts a repeated id into a later write', async () => {
    const { tasks, writes } = store(new Set(['a', 'b', 'c']));
    const b = new ReleaseBatcher(tasks, 'w', 2);
    await Promise.all([b.release('a', at), b.release('b', at), b.release('c', at)]);
    expect(writes).toEqual([['a', 'b'], ['c']]);
    writes.length = 0;
    expect(await Promise.all([b.release('a', at), b.release('a', at)])).toEqual([true, true]);
    expect(writes).toEqual([['a'], ['a']]);
  });

  it('a failed write fails every release in it', async () => {
    const { tasks } = store(new Set());
    tasks.releaseMany = async () => {
      throw new Error('db down');
    };
    const b = new ReleaseBatcher(tasks, 'w');
    const out = await Promise.allSettled([b.release('a', at), b.release('b', at)]);
    expect(out.map((o) => o.status)).toEqual(['rejected', 'rejected']);
  });
});
