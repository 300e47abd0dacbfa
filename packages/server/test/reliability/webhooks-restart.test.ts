import { eventually } from '@gateway/testkit';
import { ALPHA_KEY } from '../support/test-gateway';
import { startGatewayProcess, type GatewayProcess } from '../support/gateway-process';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver';
import { processSetup, type ProcessSetup } from './support/process-setup';
import { createTask, type PlannedTask } from './support/video-clients';
import { createEndpoint, webhookProcessEnv } from './support/webhook-process';

/**
 * Deliveries are state in the database: a gateway SIGKILLed while its receiver answers 500 leaves them pending,
 * and the restarted process delivers them, under the same webhook-id, signed with the same secret.
 */
jest.setTimeout(180_000);

let setup: ProcessSetup;
let rx: WebhookReceiver;
let gw: GatewayProcess | undefined;
afterEach(async () => {
  await gw?.stop('SIGKILL');
  await rx?.close();
  await setup?.cleanup();
});

it('resumes pending deliveries after the gateway is killed and restarted', async () => {
  rx = await startWebhookReceiver();
  setup = await processSetup({ postgres: false, workerEnv: webhookProcessEnv(rx.url) });
  rx.answer(500);
  gw = await startGatewayProcess(setup.env);
  const { secret } = await createEndpoint(gw.url, `${rx.url}/hook`);
  const task: PlannedTask = { format: 'openai', prompt: 'a cat that survives a crash', idempotencyKey: 'restart-1' };
  await createTask(gw.url, ALPHA_KEY, task);
  expect(task.id).toBeDefined();
  // the queued event has been refused at least twice: it is pending, with attempts on record
  await eventually(() => rx.received.length >= 2, 60_000, 50);
  const idBefore = rx.received[0]!.id;
  expect(rx.received.every((r) => r.id === idBefore)).toBe(true);

  await gw.stop('SIGKILL');
  rx.answer(204);
  gw = await startGatewayProcess(setup.env);

  const accepted = () => rx.verified(secret).filter((_e, i) => rx.received[i]!.answered === 204);
  await eventually(() => expect(accepted().map((e) => e.type)).toEqual(['video.queued', 'video.running', 'video.completed']), 90_000, 100);
  // the refused event came again under its first id; every event is about the task
  expect(accepted()[0]!.id).toBe(idBefore);
  expect(rx.received.filter((r) => r.answered === 204)[0]!.id).toBe(idBefore);
  expect(accepted().every((e) => e.data.id === task.id)).toBe(true);
});
