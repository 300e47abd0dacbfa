import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import type http from 'node:http';
import { mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import knex, { type Knex } from 'knex';
import { describeWithService, eventually } from '@gateway/testkit';
import { startGatewayProcess, type GatewayProcess } from '../support/gateway-process';
import { BETA_KEY, testConfigFile } from '../support/test-gateway';
import { startControlledUpstream, type ControlledUpstream } from './support/controlled-upstream';
import { PROVIDER_OF } from './support/gateway-over';
import { openStream, textCall } from './support/text-clients';

/**
 * Two replicas as docker-compose.yml runs them: each gateway is PID 1 of a PID namespace of its own, both on one
 * DATA_DIR and one PostgreSQL. A replica's spool sweep (at start, and every 30 s) claims only segments whose owner is
 * provably gone: the other replica's live priced stream is charged in full by the replica serving it, and a replica
 * SIGKILLed mid-stream is still settled by the other (interrupted, charged once) once its lease has run out.
 */
jest.setTimeout(400_000);

// --kill-child: a SIGKILL of unshare (the test's safety net) takes the gateway with it
const UNSHARE = ['unshare', '--pid', '--fork', '--kill-child', '--mount-proc'];
const MODEL = 'm-held';
// 1 credit per input token, 10 per output token: a stream settled from its pending row (input only) shows
const PRICING = { inputPerMillionTokens: 1_000_000, outputPerMillionTokens: 10_000_000 };

/** Why PID namespaces cannot be made here, or null when they can. */
function pidNamespacesUnavailable(): string | null {
  const probe = spawnSync(UNSHARE[0]!, [...UNSHARE.slice(1), 'true'], { encoding: 'utf8' });
  if (probe.error) return `unshare cannot run: ${probe.error.message}`;
  return probe.status === 0 ? null : `unshare cannot create a PID namespace: ${probe.stderr.trim()}`;
}

interface Replica extends GatewayProcess {
  /** the gateway's pid as the test sees it (in its own namespace it is 1) */
  hostPid: number;
}

async function startReplica(env: Record<string, string>): Promise<Replica> {
  const gw = await startGatewayProcess(env, { launcher: UNSHARE });
  const hostPid = Number(readFileSync(`/proc/${gw.proc.pid}/task/${gw.proc.pid}/children`, 'utf8').trim());
  // NSpid: the pid in each namespace, innermost last
  const nsPids = /^NSpid:\s+(.*)$/m.exec(readFileSync(`/proc/${hostPid}/status`, 'utf8'))?.[1] ?? '';
  expect(nsPids.split(/\s+/).at(-1)).toBe('1');
  return { ...gw, hostPid };
}

/** A priced stream whose upstream holds after its first part: resolves once that part reached the client. */
async function openHeldStream(url: string): Promise<{ requestId: string; res: http.IncomingMessage; text: Promise<string> }> {
  const { res } = await openStream(url, textCall('chat', BETA_KEY, MODEL, true, 'tell me about the sea at night'));
  expect(res.statusCode).toBe(200);
  res.setEncoding('utf8');
  let text = '';
  const first = once(res, 'data').then(([chunk]) => (text += chunk));
  await first;
  res.on('data', (c: string) => (text += c));
  const ended = new Promise<string>((resolve) => res.on('close', () => resolve(text)));
  return { requestId: String(res.headers['x-request-id']), res, text: ended };
}

describeWithService('TEST_DATABASE_URL', 'usage spool on a DATA_DIR shared by replicas in PID namespaces of their own', (pgUrl) => {
  const unavailable = pidNamespacesUnavailable();
  (unavailable ? describe.skip : describe)(`two gateways, each PID 1${unavailable ? ` (skipped: ${unavailable})` : ''}`, () => {
    let dir: string;
    let up: ControlledUpstream;
    let db: Knex;
    let env: Record<string, string>;
    const replicas: Replica[] = [];
    /** replica a's token in its segment and lease names */
    let tokenOfA = '';
    const schema = `spool_ns_${randomBytes(4).toString('hex')}`;
    const spool = () => path.join(dir, 'usage-spool');
    const segments = () => readdirSync(spool()).filter((n) => n.endsWith('.jsonl'));
    const rowsOf = (requestId: string) => db.withSchema(schema).from('usage_log').where({ request_id: requestId }).select('*');
    const ledgerOf = (rowId: string) => db.withSchema(schema).from('credit_ledger').where({ usage_row_id: rowId }).select('amount');

    beforeAll(async () => {
      dir = mkdtempSync(path.join(os.tmpdir(), 'gw-spool-ns-'));
      up = await startControlledUpstream('openai', 'hold');
      const base = testConfigFile();
      const provider = PROVIDER_OF.openai;
      const config = testConfigFile({
        providers: [...base.providers, { id: 'held', type: provider.type, options: provider.options, baseUrl: up.url, apiKey: up.apiKey }],
        models: [
          ...base.models,
          { id: MODEL, kind: 'text' as const, provider: 'held', upstreamModel: provider.upstreamModel, pricing: PRICING },
        ],
      });
      writeFileSync(path.join(dir, 'gateway.json'), JSON.stringify(config));
      env = {
        GATEWAY_CONFIG: path.join(dir, 'gateway.json'),
        DATA_DIR: dir,
        DATABASE_URL: pgUrl,
        DATABASE_SCHEMA: schema,
        SHUTDOWN_GRACE_MS: '3000',
        LOG_LEVEL: 'info',
      };
      db = knex({ client: 'pg', connection: pgUrl, pool: { min: 0, max: 2 } });
    });
    afterAll(async () => {
      for (const r of replicas) await r.stop('SIGKILL');
      up?.releaseAll();
      await up?.close();
      await db?.raw(`drop schema if exists "${schema}" cascade`);
      await db?.destroy();
      if (dir) rmSync(dir, { recursive: true, force: true });
    });

    it("a priced stream on one replica crosses the other's start-up sweep: charged in full, not interrupted", async () => {
      const a = await startReplica(env);
      replicas.push(a);
      const stream = await openHeldStream(a.url);
      // the stream's pending row is on disk in a's segment, under a's pid (1)
      const before = segments();
      expect(before).toHaveLength(1);
      expect(before[0]).toMatch(/^\d{15}-1-/);
      tokenOfA = before[0]!.split('-')[2]!;

      // b is PID 1 too, on the same spool; its sweep at start must leave a's live segment alone
      const b = await startReplica(env);
      replicas.push(b);
      const afterSweep = segments();

      up.releaseAll();
      expect(await stream.text).toContain('data: [DONE]');
      await eventually(async () => expect(await rowsOf(stream.requestId)).toHaveLength(1), 60_000, 250);
      const [row] = await rowsOf(stream.requestId);
      expect(row).toMatchObject({ status: 'ok', http_status: 200, error_code: null, account_id: 'beta' });
      const input = Number(row.input_tokens);
      const output = Number(row.output_tokens);
      expect(output).toBeGreaterThan(0);
      expect(Number(row.credits)).toBeCloseTo(input + 10 * output, 6);
      expect((await ledgerOf(row.row_id)).map((l) => Number(l.amount))).toEqual([Number(row.credits)]);
      expect(await db.withSchema(schema).from('usage_log').where({ status: 'interrupted' }).select('request_id')).toEqual([]);
      // a's live segment was not claimed: the rows a appended after b's sweep kept their durable copy
      expect(afterSweep).toEqual(expect.arrayContaining(before));
    });

    it('a replica SIGKILLed mid-stream is settled by the other once its lease has run out: interrupted, charged once', async () => {
      const [a, b] = replicas as [Replica, Replica];
      const stream = await openHeldStream(a.url);
      process.kill(a.hostPid, 'SIGKILL');
      await stream.text;
      expect(await a.stop()).not.toBe(0);
      // b's next sweep (every 30 s) claims a's segments once a has not renewed its lease for 60 s: its last renewal
      // is set two minutes back rather than waited for (a is dead, nothing renews it)
      const longAgo = new Date(Date.now() - 120_000);
      utimesSync(path.join(spool(), `${tokenOfA}.lease`), longAgo, longAgo);
      await eventually(async () => expect(await rowsOf(stream.requestId)).toHaveLength(1), 90_000, 250);
      const [row] = await rowsOf(stream.requestId);
      expect(row).toMatchObject({ status: 'interrupted', error_code: 'gateway_stopped', account_id: 'beta' });
      expect(Number(row.credits)).toBeGreaterThan(0);
      expect((await ledgerOf(row.row_id)).map((l) => Number(l.amount))).toEqual([Number(row.credits)]);

      process.kill(b.hostPid, 'SIGTERM');
      expect(await b.stop()).toBe(0);
      // every row written, a's lease removed with its segments, b's given up at its stop
      expect(readdirSync(spool())).toEqual([]);
    });
  });
});
