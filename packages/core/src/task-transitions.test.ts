import { statusEvents, transitionTask } from './task-transitions';
import { canTransition, isTerminal, TASK_STATUSES, type TaskStatus } from './video-task';

const NOW = new Date('2026-05-01T12:00:00Z');
const pairs = TASK_STATUSES.flatMap((from) => TASK_STATUSES.map((to) => [from, to] as [TaskStatus, TaskStatus]));

describe('transitionTask: the one rule every task store writes', () => {
  it.each(pairs)('%s → %s: legal by the table, or refused before any write', (from, to) => {
    if (!canTransition(from, to)) {
      expect(() => transitionTask({ status: from }, { to }, NOW)).toThrow(
        expect.objectContaining({ reason: 'conflict', code: 'illegal_transition' }),
      );
      return;
    }
    const { from: expected, patch, events } = transitionTask({ status: from }, { to, patch: { progress: 5 } }, NOW);
    expect(expected).toBe(from);
    expect(patch).toMatchObject({ status: to, progress: 5, updatedAt: NOW, endsLease: isTerminal(to) });
    // a terminal state records when it ended; a running task has not ended
    expect(patch.completedAt).toEqual(isTerminal(to) ? NOW : undefined);
    expect(events).toEqual([{ type: statusEvents(to, NOW)[0]!.type, status: to, at: NOW }]);
  });

  it('keeps a completion time the caller gives', () => {
    const at = new Date('2026-05-01T11:59:00Z');
    expect(transitionTask({ status: 'running' }, { to: 'succeeded', patch: { completedAt: at } }, NOW).patch.completedAt).toBe(at);
  });

  it('emits the status event by its webhook name (succeeded is video.completed)', () => {
    expect(transitionTask({ status: 'running' }, { to: 'succeeded' }, NOW).events.map((e) => e.type)).toEqual(['video.completed']);
    expect(statusEvents('queued', NOW)).toEqual([{ type: 'video.queued', status: 'queued', at: NOW }]);
  });
});
