import { call } from '../api';
import type { Session } from '../session';
import { ErrorNote } from '../components/bits';
import { UsageCharts } from '../components/charts';
import { useLoad } from '../components/use-load';
import { DataTable } from '../components/data-table';
import { circuitStates, parseMetrics, taskCounts } from '../metrics-text';
import { listTasks } from '../tasks-api';
import { bucketUsage } from '../usage-buckets';
import { usageRows } from '../usage-rows';

/** The admin reads task counts and breaker states from /metrics (admin-guarded); an account counts its own tasks. */
async function health(session: Session) {
  if (session.role === 'admin') {
    const samples = parseMetrics(await (await call(session.key, '/metrics')).text());
    const counts = taskCounts(samples);
    return { active: (counts.queued ?? 0) + (counts.running ?? 0), circuits: circuitStates(samples) };
  }
  const [queued, running] = await Promise.all([listTasks(session.key, 'queued'), listTasks(session.key, 'running')]);
  return { active: queued.total + running.total, circuits: null };
}

export function Overview({ session }: { session: Session }) {
  const rows = useLoad(() => usageRows(session, {}, 1000), [session.key]);
  const h = useLoad(() => health(session), [session.key]);
  const buckets = bucketUsage(rows.data ?? []);
  return (
    <section>
      <h1>Overview</h1>
      <ErrorNote error={rows.error ?? h.error} />
      <div className="tiles">
        <div className="tile">
          <span>Requests</span>
          <b>{rows.data?.length ?? '…'}</b>
        </div>
        <div className="tile">
          <span>Active video tasks</span>
          <b aria-label="Active video tasks">{h.data?.active ?? '…'}</b>
        </div>
      </div>
      <p className="note">
        Over the latest {rows.data?.length ?? 0} requests{session.role === 'admin' ? ' of every account' : ''}.
      </p>
      <UsageCharts buckets={buckets} />
      <h2>Upstream health</h2>
      {h.data?.circuits === null ? (
        <p className="note">Circuit-breaker states are for the admin.</p>
      ) : (
        <DataTable
          label="Circuit breakers"
          rows={h.data?.circuits}
          rowKey={(c) => `${c.provider}/${c.upstreamModel}`}
          columns={[
            ['Provider', (c) => c.provider],
            ['Upstream model', (c) => c.upstreamModel],
            ['Circuit', (c) => `${c.state}${c.detail ? ` (${c.detail})` : ''}`, (c) => `state-${c.state}`],
          ]}
        />
      )}
      {h.data?.circuits?.length === 0 && <p className="note">No deployment has been called yet.</p>}
    </section>
  );
}
