import { useState } from 'react';
import { getJson, sendJson } from '../api';
import type { Session } from '../session';
import { AdminOnly, ErrorNote, Field, num, SaveOrCancel } from '../components/bits';
import { useLoad, useSubmit } from '../components/use-load';
import { DataTable } from '../components/data-table';

interface Account {
  id: string;
  name?: string | null;
}
interface Quota {
  credit_limit: number | null;
  credits_used: number;
  period: string | null;
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

function CreateAccount({ adminKey, onDone }: { adminKey: string; onDone: () => void }) {
  const [f, setF] = useState({ id: '', name: '' });
  const { error, submit } = useSubmit(
    () => sendJson(adminKey, 'POST', '/admin/accounts', { id: f.id.trim(), ...(f.name.trim() && { name: f.name.trim() }) }),
    onDone,
  );
  return (
    <form className="panel form" onSubmit={(e) => void submit(e)} aria-label="Create account">
      <Field label="Account id">
        <input value={f.id} onChange={(e) => setF({ ...f, id: e.target.value })} required />
      </Field>
      <Field label="Account name">
        <input value={f.name} onChange={(e) => setF({ ...f, name: e.target.value })} />
      </Field>
      <div className="actions">
        <button type="submit">Create account</button>
      </div>
      <ErrorNote error={error} />
    </form>
  );
}

/** PATCH /admin/accounts/{id}, in the account's row: an empty name gives the account back its id as name. */
function RenameAccount({ adminKey, account, name, onDone }: { adminKey: string; account: string; name: string; onDone: () => void }) {
  const [value, setValue] = useState(name);
  const { error, submit } = useSubmit(
    () => sendJson(adminKey, 'PATCH', `/admin/accounts/${encodeURIComponent(account)}`, { name: value.trim() || null }),
    onDone,
  );
  return (
    <form className="form" onSubmit={(e) => void submit(e)} aria-label={`Name of ${account}`}>
      <Field label="New name (empty: the id)">
        <input value={value} onChange={(e) => setValue(e.target.value)} maxLength={200} />
      </Field>
      <SaveOrCancel save={'Save name'} onCancel={onDone} />
      <ErrorNote error={error} />
    </form>
  );
}

/** PUT /admin/accounts/{id}/quota: an empty limit is unlimited. */
function EditQuota({ adminKey, account, quota, onDone }: { adminKey: string; account: string; quota: Quota | null; onDone: () => void }) {
  const [limit, setLimit] = useState(quota?.credit_limit === null || !quota ? '' : String(quota.credit_limit));
  const [period, setPeriod] = useState(quota ? (quota.period ?? 'none') : 'monthly');
  const { error, submit } = useSubmit(
    () =>
      sendJson(adminKey, 'PUT', `/admin/accounts/${encodeURIComponent(account)}/quota`, {
        credit_limit: limit.trim() === '' ? null : Number(limit),
        period: period === 'none' ? null : period,
      }),
    onDone,
  );
  return (
    <form className="panel form" onSubmit={(e) => void submit(e)} aria-label={`Quota of ${account}`}>
      <Field label="Credit limit (empty: unlimited)">
        <input type="number" min="0" step="any" value={limit} onChange={(e) => setLimit(e.target.value)} />
      </Field>
      <Field label="Quota period">
        <select value={period} onChange={(e) => setPeriod(e.target.value)}>
          <option value="daily">daily</option>
          <option value="monthly">monthly</option>
          <option value="none">none</option>
        </select>
      </Field>
      <SaveOrCancel save={'Save quota'} onCancel={onDone} />
      <ErrorNote error={error} />
    </form>
  );
}

/**
 * The platform admin's accounts: create one, rename it, set its credit quota (the bound its account admins' key
 * budgets stay within); each with its usage totals. Rate-limit ceilings are the account admin keys' own limits (Keys).
 */
export function Accounts({ session }: { session: Session }) {
  const admin = session.role === 'admin';
  const rows = useLoad(() => (admin ? loadAccounts(session.key) : Promise.resolve([])), [session.key, admin]);
  const [creating, setCreating] = useState(false);
  const [editing, setEditing] = useState<string | null>(null);
  const [renaming, setRenaming] = useState<string | null>(null);
  if (!admin) return <AdminOnly what="Accounts" />;
  const editedRow = rows.data?.find((a) => a.id === editing);
  return (
    <section>
      <h1>Accounts</h1>
      <button type="button" onClick={() => setCreating(true)} disabled={creating}>
        New account
      </button>
      {creating && (
        <CreateAccount
          adminKey={session.key}
          onDone={() => {
            setCreating(false);
            rows.reload();
          }}
        />
      )}
      {editedRow && (
        <EditQuota
          key={editedRow.id}
          adminKey={session.key}
          account={editedRow.id}
          quota={editedRow.quota ?? null}
          onDone={() => {
            setEditing(null);
            rows.reload();
          }}
        />
      )}
      <ErrorNote error={rows.error} />
      <DataTable
        rows={rows.data}
        rowKey={(a) => a.id}
        columns={[
          ['Account', (a) => a.id],
          [
            'Name',
            (a) =>
              renaming === a.id ? (
                <RenameAccount
                  adminKey={session.key}
                  account={a.id}
                  name={a.name ?? ''}
                  onDone={() => {
                    setRenaming(null);
                    rows.reload();
                  }}
                />
              ) : (
                (a.name ?? '—')
              ),
          ],
          [
            'Credits used / limit',
            (a) =>
              `${num(a.quota?.credits_used, 2)} / ${a.quota?.credit_limit === null || !a.quota ? 'unlimited' : num(a.quota.credit_limit, 2)}`,
          ],
          ['Period', (a) => a.quota?.period ?? '—'],
          ['Requests', (a) => a.usage?.requests ?? 0],
          ['Tokens in / out', (a) => `${a.usage?.input_tokens ?? 0} / ${a.usage?.output_tokens ?? 0}`],
          ['Credits charged', (a) => num(a.usage?.credits ?? 0, 4)],
          ['Refunds', (a) => num(a.usage?.refunds ?? 0, 4)],
          [
            '',
            (a) => (
              <>
                <button type="button" onClick={() => setRenaming(a.id)} disabled={renaming === a.id}>
                  Edit name
                </button>
                <button type="button" onClick={() => setEditing(a.id)}>
                  Edit quota
                </button>
              </>
            ),
          ],
        ]}
      />
    </section>
  );
}
