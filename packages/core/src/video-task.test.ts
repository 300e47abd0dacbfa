import { assertTransition, canTransition, isTerminal, TASK_STATUSES, TASK_TRANSITIONS, type TaskStatus } from './video-task';

const LEGAL: Array<[TaskStatus, TaskStatus]> = [
  ['queued', 'running'],
  ['queued', 'failed'],
  ['queued', 'cancelled'],
  ['queued', 'expired'],
  ['running', 'succeeded'],
  ['running', 'failed'],
  ['running', 'cancelled'],
  ['running', 'expired'],
];

describe('task transition table', () => {
  const pairs = TASK_STATUSES.flatMap((from) => TASK_STATUSES.map((to) => [from, to] as [TaskStatus, TaskStatus]));

  it.each(pairs)('%s → %s follows the issue table', (from, to) => {
    const legal = LEGAL.some(([f, t]) => f === from && t === to);
    expect(canTransition(from, to)).toBe(legal);
    if (legal) expect(() => assertTransition(from, to)).not.toThrow();
    else expect(() => assertTransition(from, to)).toThrow(expect.objectContaining({ reason: 'conflict', code: 'illegal_transition' }));
  });

  it('terminal states never change', () => {
    expect(TASK_STATUSES.filter(isTerminal)).toEqual(['succeeded', 'failed', 'cancelled', 'expired']);
  });

  it('the table is frozen', () => {
    expect(Object.isFrozen(TASK_TRANSITIONS)).toBe(true);
    expect(Object.isFrozen(TASK_TRANSITIONS.queued)).toBe(true);
  });
});
