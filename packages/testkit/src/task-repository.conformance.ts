import { canTransition, type NewVideoTask, type TaskStatus } from '@gateway/core';
import { admissionRules } from './task-conformance/task-admission.rules';
import { conformanceTask, moveTask, type TaskConformance, type TaskStore } from './task-conformance/task-conformance-fixtures';
import { queueRules } from './task-conformance/task-queue.rules';
import { statusRules } from './task-conformance/task-status.rules';

export { conformanceTask, moveTask, type TaskStore } from './task-conformance/task-conformance-fixtures';

export interface TaskRepositoryHarness {
  repo: TaskStore;
  /** a second handle on the same data, as another process would hold (defaults to repo) */
  other?: TaskStore;
  /** empties the store; runs before every test */
  reset(): Promise<void>;
  done(): Promise<void>;
}

/** The path from queued to `status` through legal moves. */
function pathTo(status: TaskStatus): TaskStatus[] {
  if (status === 'queued') return [];
  return canTransition('queued', status) ? [status] : ['running', status];
}

/** Every TaskRepository + TaskQueue adapter runs this suite (the in-memory fake included). */
export function describeTaskRepositoryConformance(name: string, make: () => Promise<TaskRepositoryHarness>): void {
  describe(`TaskRepository conformance: ${name}`, () => {
    let h: TaskRepositoryHarness;
    const c: TaskConformance = {
      repo: undefined as unknown as TaskStore,
      other: undefined as unknown as TaskStore,
      async taskIn(status: TaskStatus, over: Partial<NewVideoTask> = {}) {
        let t = await c.repo.create(conformanceTask(over));
        for (const s of pathTo(status)) t = (await moveTask(c.repo, t.id, t.status, s))!;
        return t;
      },
    };
    beforeAll(async () => {
      h = await make();
    });
    afterAll(async () => h.done());
    beforeEach(async () => {
      await h.reset();
      c.repo = h.repo;
      c.other = h.other ?? h.repo;
    });

    describe('status changes', () => statusRules(c));
    describe('the worker queue', () => queueRules(c));
    describe('admission, listing, deletion', () => admissionRules(c));
  });
}
