import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import type { Knex } from 'knex';

/**
 * What the store and the content directory hold after a run, checked for what must never be: a task without its
 * request, a succeeded task whose content is missing or of another size, content on a task that did not succeed,
 * a task charged, refunded or settled twice (or refunded though it succeeded, or given back more than it paid), a task of a priced model never charged or
 * without its usage row, two "queued" usage rows for one task, a stored response that is not a completed one. Leftover `.partial` files are counted (no record points at them).
 */
export interface StoreAudit {
  tasks: number;
  byStatus: Record<string, number>;
  violations: string[];
  storedResponses: number;
  /** credit-ledger rows that charged a task */
  taskCharges: number;
  leftoverPartials: number;
}

const TERMINAL = new Set(['succeeded', 'failed', 'cancelled', 'expired']);

function partialFiles(dir: string): number {
  let n = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    if (e.isDirectory()) n += partialFiles(path.join(dir, e.name));
    else if (e.name.endsWith('.partial')) n++;
  }
  return n;
}

export async function auditStore(
  knex: Knex,
  dataDir: string,
  opts: { requireTerminal?: boolean; /** every task of these models must be charged exactly once */ pricedModels?: string[] } = {},
): Promise<StoreAudit> {
  const violations: string[] = [];
  const byStatus: Record<string, number> = {};
  const tasks = await knex('video_tasks').select('id', 'model', 'status', 'request', 'delivery');
  for (const t of tasks) {
    byStatus[t.status] = (byStatus[t.status] ?? 0) + 1;
    if (opts.requireTerminal !== false && !TERMINAL.has(t.status)) violations.push(`${t.id}: still ${t.status}`);
    if (!t.request || typeof t.request !== 'object' || Object.keys(t.request).length === 0) violations.push(`${t.id}: no request`);
    if (t.status === 'succeeded') {
      const key = t.delivery?.contentKey as string | undefined;
      const file = key && path.join(dataDir, 'content', key);
      const size = file ? statSync(file, { throwIfNoEntry: false })?.size : undefined;
      if (size === undefined) violations.push(`${t.id}: succeeded without its content file`);
      else if (size !== t.delivery.bytes) violations.push(`${t.id}: content is ${size} bytes, delivery says ${t.delivery.bytes}`);
    } else if (t.delivery) violations.push(`${t.id}: ${t.status} with a delivery`);
  }
  const ledger = await knex('credit_ledger').whereNotNull('task_id').select('task_id', 'amount', 'reason');
  const status = new Map(tasks.map((t) => [t.id, t.status]));
  const moves = new Map<string, { charges: number; refunds: number; deliveryRefunds: number; net: number }>();
  for (const l of ledger) {
    const m = moves.get(l.task_id) ?? { charges: 0, refunds: 0, deliveryRefunds: 0, net: 0 };
    if (Number(l.amount) > 0) m.charges++;
    // a succeeded task may get back what it did not deliver (its settlement), once; any other refund is a failure's
    else if (Number(l.amount) < 0 && l.reason === 'video task delivery refund') m.deliveryRefunds++;
    else if (Number(l.amount) < 0) m.refunds++;
    m.net += Number(l.amount);
    moves.set(l.task_id, m);
  }
  for (const [id, m] of moves) {
    if (m.charges > 1) violations.push(`${id}: charged ${m.charges} times`);
    if (m.refunds > 1) violations.push(`${id}: refunded ${m.refunds} times`);
    if (m.deliveryRefunds > 1) violations.push(`${id}: settled ${m.deliveryRefunds} times`);
    if (m.refunds > 0 && status.get(id) === 'succeeded') violations.push(`${id}: refunded though it succeeded`);
    if (m.deliveryRefunds > 0 && status.get(id) !== 'succeeded') violations.push(`${id}: settled on a delivery though ${status.get(id)}`);
    if (m.net < -1e-6) violations.push(`${id}: given back more than it was charged`);
  }
  const withUsage = new Set((await knex('usage_log').whereNotNull('task_id').distinct('task_id')).map((r) => r.task_id as string));
  for (const t of tasks) {
    if (!withUsage.has(t.id)) violations.push(`${t.id}: no usage row`);
    if (opts.pricedModels?.includes(t.model) && (moves.get(t.id)?.charges ?? 0) !== 1)
      violations.push(`${t.id}: charged ${moves.get(t.id)?.charges ?? 0} times (priced model ${t.model})`);
  }
  const queued = await knex('usage_log')
    .whereNotNull('task_id')
    .andWhere({ status: 'queued' })
    .groupBy('task_id')
    .havingRaw('count(*) > 1')
    .select('task_id');
  for (const q of queued) violations.push(`${q.task_id}: two "queued" usage rows`);
  const responses = await knex('responses').select('id', 'document');
  for (const r of responses) if (r.document?.status !== 'completed') violations.push(`response ${r.id}: stored as ${r.document?.status}`);
  const taskCharges = [...moves.values()].reduce((n, m) => n + m.charges, 0);
  return {
    tasks: tasks.length,
    byStatus,
    violations,
    storedResponses: responses.length,
    taskCharges,
    leftoverPartials: partialFiles(path.join(dataDir, 'content')),
  };
}
