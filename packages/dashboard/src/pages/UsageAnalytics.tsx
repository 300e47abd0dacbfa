import { Bar, BarChart, CartesianGrid, Legend, Tooltip, XAxis, YAxis } from 'recharts';
import type { Session } from '../session';
import type { Caller } from '../roles';
import { ErrorNote, num } from '../components/bits';
import { Figure } from '../components/charts';
import { useLoad } from '../components/use-load';
import { DataTable, type Column } from '../components/data-table';
import { getJson, query } from '../api';
import { groupLabel, spendPath, type Grouping, type LatencyGroup, type Scope, type SpendGroup } from '../usage-analytics';

export async function spendBy(session: Session, caller: Caller, by: Grouping, s: Scope): Promise<SpendGroup[]> {
  const path = spendPath(caller, by, s);
  const body = await getJson<{ data: SpendGroup[]; groups?: SpendGroup[] }>(session.key, path);
  return caller === 'platform' ? body.data : (body.groups ?? []);
}

/** p50/p95 latency and errors per model or provider: the platform admin's (GET /admin/usage/latency). */
export async function latencyBy(session: Session, by: 'model' | 'provider', s: Scope): Promise<LatencyGroup[]> {
  const path = `/admin/usage/latency${query({ group_by: by, from: s.from, to: s.to, account: s.account, key: s.key, model: s.model, provider: s.provider })}`;
  return (await getJson<{ data: LatencyGroup[] }>(session.key, path)).data;
}

const COLORS = ['#4169e1', '#2e8b57', '#d2691e', '#8a2be2', '#c71585'];
/** Models drawn one by one in the per-day chart; the rest are in the table. */
const CHARTED_MODELS = COLORS.length;

/** Spend per day, one stack per model (the top models by spend over the range). */
async function spendPerDayByModel(session: Session, caller: Caller, scope: Scope, models: SpendGroup[]) {
  const top = [...models]
    .filter((m) => m.group !== null)
    .sort((a, b) => b.credits - a.credits)
    .slice(0, CHARTED_MODELS);
  const series = await Promise.all(top.map((m) => spendBy(session, caller, 'day', { ...scope, model: m.group! })));
  const days = new Map<string, Record<string, number | string>>();
  series.forEach((groups, i) => {
    for (const g of groups) {
      const day = days.get(g.group ?? '—') ?? { label: g.group ?? '—' };
      day[top[i]!.group!] = g.credits - g.refunds;
      days.set(g.group ?? '—', day);
    }
  });
  return { models: top.map((m) => m.group!), days: [...days.values()].sort((a, b) => String(a.label).localeCompare(String(b.label))) };
}

async function analytics(session: Session, caller: Caller, scope: Scope) {
  const platform = caller === 'platform';
  const [byModel, byKey, byAccount, latencyModel, latencyProvider] = await Promise.all([
    spendBy(session, caller, 'model', scope),
    spendBy(session, caller, 'key', scope),
    platform ? spendBy(session, caller, 'account', scope) : Promise.resolve(null),
    platform ? latencyBy(session, 'model', scope) : Promise.resolve(null),
    platform ? latencyBy(session, 'provider', scope) : Promise.resolve(null),
  ]);
  const perDay = await spendPerDayByModel(session, caller, scope, byModel);
  return { byModel, byKey, byAccount, latencyModel, latencyProvider, perDay };
}

/**
 * Totals over the whole chosen range, from the grouped usage API (every row of the range, not a page): spend per day
 * by model, spend by model, key (by name) and account, and p50/p95 latency and error rate by model and provider.
 */
export function UsageAnalytics({ session, caller, scope }: { session: Session; caller: Caller; scope: Scope }) {
  const data = useLoad(() => analytics(session, caller, scope), [session.key, caller, scope]);
  const d = data.data;
  return (
    <div className="analytics">
      <ErrorNote error={data.error} />
      <Figure title="Spend per day by model (credits)">
        <BarChart data={d?.perDay.days ?? []}>
          <CartesianGrid strokeDasharray="3 3" />
          <XAxis dataKey="label" />
          <YAxis />
          <Tooltip />
          <Legend />
          {(d?.perDay.models ?? []).map((m, i) => (
            <Bar key={m} dataKey={m} stackId="spend" fill={COLORS[i % COLORS.length]} isAnimationActive={false} />
          ))}
        </BarChart>
      </Figure>
      <div className="columns">
        <SpendTable title="Spend by model" groups={d?.byModel} />
        <SpendTable title="Spend by key" groups={d?.byKey} />
        {d?.byAccount && <SpendTable title="Spend by account" groups={d.byAccount} />}
      </div>
      {d?.latencyModel && <LatencyTable title="Latency and errors by model" groups={d.latencyModel} />}
      {d?.latencyProvider && <LatencyTable title="Latency and errors by provider" groups={d.latencyProvider} />}
      {d && !d.latencyModel && <p className="note">Latency percentiles across models and providers are the platform admin&apos;s view.</p>}
    </div>
  );
}

/** A table of groups under its title, one row per group. */
const groupTable = <G extends { group: string | null }>(title: string, groups: G[] | undefined, columns: Array<Column<G>>) => (
  <DataTable label={title} caption={title} rows={groups} rowKey={(g) => g.group ?? '—'} columns={columns} />
);

function SpendTable({ title, groups }: { title: string; groups: SpendGroup[] | undefined }) {
  return groupTable(title, groups, [
    [title.replace('Spend by ', ''), groupLabel],
    ['Requests', (g) => g.requests],
    ['Credits', (g) => num(g.credits, 4)],
    ['Refunds', (g) => num(g.refunds, 4)],
  ]);
}

function LatencyTable({ title, groups }: { title: string; groups: LatencyGroup[] }) {
  return groupTable(title, groups, [
    [title.endsWith('model') ? 'Model' : 'Provider', (g) => g.group ?? '—'],
    ['Requests', (g) => g.requests],
    ['p50 ms', (g) => num(g.latency_p50_ms)],
    ['p95 ms', (g) => num(g.latency_p95_ms)],
    ['Error rate', (g) => `${(g.error_rate * 100).toFixed(1)} %`],
  ]);
}
