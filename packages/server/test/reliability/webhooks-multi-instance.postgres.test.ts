import { describeWithService, eventually } from '@gateway/testkit';
import { ALPHA_KEY } from '../support/test-gateway';
import { startGatewayProcess, type GatewayProcess } from '../support/gateway-process';
import { readEventStream, startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver';
import { processSetup, type ProcessSetup } from './support/process-setup';
import { createTask, type PlannedTask, VIDEO_FORMATS } from './support/video-clients';
import { createEndpoint, webhookProcessEnv } from './support/webhook-process';

/**
 * Two gateway processes on one PostgreSQL schema: every event of every task reaches the endpoint exactly once
 * (SKIP LOCKED claims, leases longer than a POST), in order per task; a live-status stream opened on one instance
 * follows a task the other instance's worker drives (LISTEN/NOTIFY).
 */
jest.setTimeout(240_000);

describeWithService('TEST_DATABASE_URL', 'webhooks on two instances', () => {
  let setup: ProcessSetup;
  let rx: WebhookReceiver;
  let a: GatewayProcess | undefined;
  let b: GatewayProcess | undefined;
  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    await rx?.close();
    await setup?.cleanup();
  });

  it('delivers each event once, in order per task, and streams live status across instances', async () => {
    rx = await startWebhookReceiver();
    // a shared database needs GATEWAY_SECRET for sealed webhook secrets
    setup = await processSetup({
      postgres: true,
      workerEnv: {
        ...webhookProcessEnv(rx.url),
        GATEWAY_SECRET: 'two-instance-webhook-secret-0001',
        // no polling to speak of: the live stream must be woken by LISTEN/NOTIFY
        TASK_EVENTS_POLL_MS: '600000',
      },
    });
    [a, b] = await Promise.all([startGatewayProcess(setup.env), startGatewayProcess(setup.env)]);
    const { secret } = await createEndpoint(a.url, `${rx.url}/hook`);
    const tasks: PlannedTask[] = Array.from({ length: 8 }, (_, i) => ({
      format: VIDEO_FORMATS[i % 3]!,
      prompt: `shared webhook task ${i}${i === 5 ? ' [sim:fail]' : ''}`,
      idempotencyKey: `wh-shared-${i}`,
    }));
    await Promise.all(tasks.map((t, i) => createTask((i % 2 ? b! : a!).url, ALPHA_KEY, t)));
    // created on A, watched on B
    const live = readEventStream(`${b.url}/v1/videos/${tasks[0]!.id}/events`, ALPHA_KEY);

    const eventsOf = (id: string) => rx.verified(secret).filter((e) => e.data.id === id);
    await eventually(
      () => {
        for (const t of tasks) expect(eventsOf(t.id!).at(-1)?.type).toMatch(/^video\.(completed|failed)$/);
      },
      180_000,
      200,
    );
    for (const t of tasks) {
      const types = eventsOf(t.id!).map((e) => e.type);
      expect(types).toEqual(['video.queued', 'video.running', t.prompt.includes('[sim:fail]') ? 'video.failed' : 'video.completed']);
    }
    const ids = rx.received.map((r) => r.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toHaveLength(tasks.length * 3);

    const { events } = await live;
    expect(events.at(-1).status).toBe('completed');
  });
});
