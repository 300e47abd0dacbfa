import { taskErrorOf } from './task-errors';

describe('taskErrorOf', () => {
  it('gives each unsuccessful end state a default error and keeps a task’s own', () => {
    expect(taskErrorOf({ status: 'failed', error: null })).toMatchObject({ code: 'generation_failed' });
    expect(taskErrorOf({ status: 'cancelled', error: null })).toMatchObject({ code: 'cancelled' });
    expect(taskErrorOf({ status: 'expired', error: null })).toMatchObject({ code: 'expired' });
    expect(taskErrorOf({ status: 'failed', error: { code: 'content_policy', message: 'no' } })).toEqual({
      code: 'content_policy',
      message: 'no',
    });
  });

  it('reports no error while a task may still succeed, or after it did', () => {
    for (const status of ['queued', 'running', 'succeeded'] as const) expect(taskErrorOf({ status, error: null })).toBeNull();
  });
});
