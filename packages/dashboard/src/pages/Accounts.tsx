import { getJson } from '../api';
import type { Session } from '../session';
import { AdminOnly, ErrorNote, num } from '../components/bits';
import { useLoad } from '../components/use-load';

interface Account {
  id: string;
  name?: string | null;
}
interface Quota {
  credit_limit: number | null;
  credits_used: number;
  period: string;
}
interface Group {
  group: string | null;
  requests: number;
  input_tokens: number;
  output_tokens: number;
  credits: number;
  refunds: number;
}

/** Every account with its credit quota and its usage totals (GET /admin/usage grouped by account). */
async function loadAccounts(adminKey: string) {
  const [accounts, usage] = await Promise.all([
    getJson<{ data: Account[] }>(adminKey, '/admin/accounts'),
    getJson<{ data: Group[] }>(adminKey, '/admin/usage?group_by=account&limit=10000'),
  ]);
  const quotas = await Promise.all(
    accounts.data.map((a) => getJson<Quota>(adminKey, `/admin/accounts/${encodeURIComponent(a.id)}/quota`).catch(() => null)),
  );
  const byAccount = new Map(usage.data.map((g) => [g.group, g]));
  return accounts.data.map((a, i) => ({ ...a, quota: quotas[i], usage: byAccount.get(a.id) }));
}

export function Accounts({ session }: { session: Session }) {
  const admin = session.role === 'admin';
  const rows = useLoad(() => (admin ? loadAccounts(session.key) : Promise.resolve([])), [session.key, admin]);
  if (!admin) return <AdminOnly what="Accounts" />;
  return (
    <section>
      <h1>Accounts</h1>
      <ErrorNote error={rows.error} />
      <table>
        <thead>
          <tr>
            <th>Account</th>
            <th>Name</th>
            <th>Credits used / limit</th>
            <th>Period</th>
            <th>Requests</th>
            <th>Tokens in / out</th>
            <th>Credits charged</th>
            <th>Refunds</th>
          </tr>
        </thead>
        <tbody>
          {(rows.data ?? []).map((a) => (
            <tr key={a.id}>
              <td>{a.id}</td>
              <td>{a.name ?? '—'}</td>
              <td>
                {num(a.quota?.credits_used, 2)} / {a.quota?.credit_limit === null || !a.quota ? 'unlimited' : num(a.quota.credit_limit, 2)}
              </td>
              <td>{a.quota?.period ?? '—'}</td>
              <td>{a.usage?.requests ?? 0}</td>
              <td>
                {a.usage?.input_tokens ?? 0} / {a.usage?.output_tokens ?? 0}
              </td>
              <td>{num(a.usage?.credits ?? 0, 4)}</td>
              <td>{num(a.usage?.refunds ?? 0, 4)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
