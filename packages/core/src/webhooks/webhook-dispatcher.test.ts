import { Webhook } from 'standardwebhooks';
import type { ClaimedDelivery, DeliveryOutcome, WebhookAttempt, WebhookOutbox } from '../ports/webhook-store.port';
import type { WebhookAnswer } from '../ports/webhook-sender.port';
import type { VideoTask } from '../video-task';
import { WebhookDispatcher } from './webhook-dispatcher';
import { newWebhookSecret } from './webhook-signing';

const task = { id: 'task1', model: 'm', status: 'succeeded', accountId: 'a' } as VideoTask;
const secret = newWebhookSecret();
const NOW = new Date();

function claimed(over: Partial<ClaimedDelivery['delivery']> = {}, disabled = false): ClaimedDelivery {
  return {
    url: 'https://hooks.example.com/',
    secret,
    disabled,
    delivery: {
      id: 'd1',
      eventId: 'evt_1',
      type: 'video.completed',
      taskId: 'task1',
      accountId: 'a',
      endpointId: 'we_1',
      task,
      eventAt: new Date('2026-01-01T00:00:00Z'),
      state: 'pending',
      attempts: 0,
      nextAttemptAt: new Date(0),
      firstAttemptAt: null,
      body: null,
      ...over,
    },
  };
}

function harness(answer: WebhookAnswer, batch: ClaimedDelivery[], opts: { disableOnFailure?: boolean } = {}) {
  const recorded: Array<{ attempt: WebhookAttempt; outcome: DeliveryOutcome; body: string }> = [];
  const sent: Array<{ headers: Record<string, string>; body: string }> = [];
  const logs: Array<[string, string, Record<string, unknown>]> = [];
  const calls: string[] = [];
  const outbox: WebhookOutbox = {
    claimDue: async () => batch,
    recordAttempt: async (_id, _owner, attempt, outcome, body) => {
      recorded.push({ attempt, outcome, body });
      return true;
    },
    abandon: async (id) => void calls.push(`abandon ${id}`),
    endpointFailed: async (id) => {
      calls.push(`failed ${id}`);
      return { disabled: opts.disableOnFailure === true };
    },
    endpointSucceeded: async (id) => void calls.push(`ok ${id}`),
  };
  // real time: standardwebhooks refuses timestamps more than five minutes off
  const now = NOW;
  const d = new WebhookDispatcher(
    {
      outbox,
      sender: { post: async (_url, req) => (sent.push(req), answer) },
      renderCallback: (t) => ({ id: t.id, shape: 'task-read' }),
      retry: { firstDelayMs: 5000, factor: 3, maxDelayMs: 3600_000, windowMs: 24 * 3600_000 },
      log: (level, message, fields) => logs.push([level, message, fields]),
      now: () => now,
    },
    { owner: 'w', batch: 10, timeoutMs: 1000, leaseMs: 5000 },
  );
  return { d, recorded, sent, logs, calls, now };
}

describe('WebhookDispatcher', () => {
  it('signs the event body so standardwebhooks verifies it, and settles a 2xx', async () => {
    const h = harness({ status: 204, excerpt: '' }, [claimed()]);
    expect(await h.d.pump()).toBe(1);
    await h.d.idle();
    const { headers, body } = h.sent[0]!;
    expect(new Webhook(secret).verify(body, headers)).toEqual({
      object: 'event',
      id: 'evt_1',
      type: 'video.completed',
      created_at: Math.floor(Date.parse('2026-01-01T00:00:00Z') / 1000),
      data: { id: 'task1', status: 'succeeded', model: 'm' },
    });
    expect(h.recorded[0]!.outcome).toEqual({ state: 'delivered' });
    expect(h.calls).toEqual(['ok we_1']);
  });

  it('sends the stored body again on a retry, and schedules the next one on a failure', async () => {
    const h = harness({ status: 500, excerpt: 'x'.repeat(2000) }, [
      claimed({ body: '{"same":1}', attempts: 2, firstAttemptAt: new Date(NOW.getTime() - 10_000) }),
    ]);
    await h.d.pump();
    await h.d.idle();
    expect(h.sent[0]!.body).toBe('{"same":1}');
    expect(h.sent[0]!.headers['webhook-id']).toBe('evt_1');
    const r = h.recorded[0];
    expect(r!.attempt).toMatchObject({ attempt: 3, statusCode: 500 });
    expect(r!.attempt.responseExcerpt).toHaveLength(512);
    expect(r!.outcome).toEqual({ state: 'pending', nextAttemptAt: new Date(h.now.getTime() + 45_000) });
    expect(h.calls).toEqual(['failed we_1']);
  });

  it('gives up at the end of the window, and reports a disabled endpoint', async () => {
    const first = new Date(NOW.getTime() - 25 * 3600_000);
    const h = harness({ error: 'no answer within 1000 ms' }, [claimed({ attempts: 9, firstAttemptAt: first })], { disableOnFailure: true });
    await h.d.pump();
    await h.d.idle();
    expect(h.recorded[0]!.outcome).toEqual({ state: 'failed' });
    expect(h.logs.map(([level, message]) => `${level} ${message}`)).toEqual([
      'warn webhook delivery given up',
      'warn webhook endpoint disabled',
    ]);
    expect(h.logs[1]![2]).toMatchObject({ endpointId: 'we_1', reason: expect.stringContaining('no answer') });
    expect(JSON.stringify(h.logs)).not.toContain(secret);
  });

  it('posts the task-read object to a callback_url and skips disabled endpoints', async () => {
    const h = harness({ status: 200, excerpt: 'ok' }, [claimed({ endpointId: null }), claimed({ id: 'd2' }, true)]);
    await h.d.pump();
    await h.d.idle();
    expect(h.sent.map((s) => JSON.parse(s.body))).toEqual([{ id: 'task1', shape: 'task-read' }]);
    expect(h.calls).toEqual(['abandon d2']);
  });

  it('fails the attempt, without sending, when the secret cannot be read', async () => {
    const c = { ...claimed(), secret: { unavailable: 'GATEWAY_SECRET is not set' } };
    const h = harness({ status: 204, excerpt: '' }, [c]);
    await h.d.pump();
    await h.d.idle();
    expect(h.sent).toEqual([]);
    expect(h.recorded[0]!.attempt.error).toContain('GATEWAY_SECRET is not set');
    expect(h.recorded[0]!.outcome.state).toBe('pending');
  });
});
