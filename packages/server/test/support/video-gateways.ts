/**
 * Gateways for the video wire-format contract tests. Validation suites run without the worker (accepted
 * tasks just stay queued, nothing renders); suites that need finished videos start it, with two extra
 * simulator-backed models whose tasks stay queued (cancellable) or running for the whole test.
 */
import request from 'supertest';
import { eventually } from '@gateway/testkit';
import { DEFAULT_CONFIG } from '../../src/default-config';
import type { GatewayEnv } from '../../src/gateway-env';
import { startTestGateway, testConfigFile, type TestGateway } from './test-gateway';

export const SLOW_MODEL = 'sim-video-queued';
export const RUNNING_MODEL = 'sim-video-running';

export async function startVideoGateway(
  opts: { worker?: boolean; maxActiveTasks?: number; env?: Partial<GatewayEnv> } = {},
): Promise<TestGateway> {
  const config = testConfigFile({
    providers: [
      { id: 'sim', type: 'simulator', options: { queuedMs: 150, videoLatencyMs: 300 } },
      { id: 'sim-queued', type: 'simulator', options: { queuedMs: 600_000 } },
      { id: 'sim-running', type: 'simulator', options: { queuedMs: 0, videoLatencyMs: 600_000 } },
    ],
    models: [
      ...DEFAULT_CONFIG.models,
      { id: SLOW_MODEL, kind: 'video', family: '2.0', tier: 'standard', provider: 'sim-queued' },
      { id: RUNNING_MODEL, kind: 'video', family: '2.0', tier: 'standard', provider: 'sim-running' },
    ],
    limits: { maxActiveTasksPerAccount: opts.maxActiveTasks ?? 1000 },
  });
  const gw = await startTestGateway({ listen: false, config, env: opts.env });
  if (opts.worker) await gw.startBackground();
  return gw;
}

/** Polls the task-read route until `done(status)` holds; returns that status. */
export async function waitForTask(
  app: TestGateway['app'],
  id: string,
  key: string,
  done: (status: string) => boolean = isTerminal,
  timeoutMs = 15_000,
): Promise<string> {
  let status = '';
  await eventually(
    async () => {
      status = (await request(app).get(`/v1/contents/generations/tasks/${id}`).set('Authorization', `Bearer ${key}`)).body.status;
      if (!done(status)) throw new Error(`task ${id} is still ${status}`);
    },
    timeoutMs,
    100,
  );
  return status;
}

const isTerminal = (s: string) => !['queued', 'running'].includes(s);
