import { transitionTask } from '@gateway/core';
import { conformanceTask, describeTaskRepositoryConformance, moveTask } from '../task-repository.conformance';
import { InMemoryTaskRepository } from './in-memory-task-repository';

let repo = new InMemoryTaskRepository();
describeTaskRepositoryConformance('in-memory fake', async () => ({
  get repo() {
    return repo;
  },
  reset: async () => {
    repo = new InMemoryTaskRepository();
  },
  done: async () => undefined,
}));

describe('InMemoryTaskRepository records the events the core decided', () => {
  it('keeps a creation event and each applied transition its events, and nothing for a lost compare-and-set', async () => {
    const store = new InMemoryTaskRepository();
    const t = await store.create(conformanceTask());
    const now = new Date('2026-03-01T00:01:00Z');
    await moveTask(store, t.id, 'queued', 'running', undefined, now);
    expect(await moveTask(store, t.id, 'queued', 'cancelled', undefined, now)).toBeNull();
    await store.expireOverdue(new Date('2026-03-01T02:00:00Z'), 10, (task) =>
      transitionTask(task, { to: 'expired', patch: { error: { code: 'expired', message: 'late' } } }, new Date('2026-03-01T02:00:00Z')),
    );
    expect(store.events(t.id)).toEqual([
      { taskId: t.id, type: 'video.queued', status: 'queued', at: t.createdAt },
      { taskId: t.id, type: 'video.running', status: 'running', at: now },
      { taskId: t.id, type: 'video.expired', status: 'expired', at: new Date('2026-03-01T02:00:00Z') },
    ]);
  });
});
