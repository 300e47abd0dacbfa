import { useState } from 'react';
import { getJson, sendJson } from '../api';
import type { Session } from '../session';
import { ErrorNote, Field } from '../components/bits';
import { useLoad, useSubmit } from '../components/use-load';
import { DataTable } from '../components/data-table';

interface McpServer {
  id: string;
  source: 'file' | 'admin';
  url: string;
  headers: string[];
  pricePerCall: number | null;
  status: 'ok' | 'error';
  tools?: number;
  error?: string;
}

const BASE = '/admin/mcp/servers';
const EMPTY = { id: '', url: '', header: '', value: '', price: '' };

/**
 * The platform admin's MCP servers (GET /admin/mcp/servers): each with its status now and its tool count; add one
 * (a credential header is sent once and never shown again) or delete a registered one. The config file's are
 * read-only here.
 */
export function McpServers({ session }: { session: Session }) {
  const servers = useLoad(() => getJson<{ data: McpServer[] }>(session.key, BASE).then((r) => r.data), [session.key]);
  const [f, setF] = useState(EMPTY);
  const [error, setError] = useState<string | null>(null);
  const add = useSubmit(
    () =>
      sendJson(session.key, 'POST', BASE, {
        id: f.id.trim(),
        url: f.url.trim(),
        ...(f.header.trim() && { headers: { [f.header.trim()]: f.value } }),
        ...(f.price.trim() && { pricePerCall: Number(f.price) }),
      }),
    () => {
      setF(EMPTY);
      servers.reload();
    },
  );
  const remove = async (id: string) => {
    setError(null);
    try {
      await sendJson(session.key, 'DELETE', `${BASE}/${encodeURIComponent(id)}`);
      servers.reload();
    } catch (err) {
      setError((err as Error).message);
    }
  };
  const set = (k: keyof typeof EMPTY) => (e: { target: { value: string } }) => setF({ ...f, [k]: e.target.value });
  return (
    <section>
      <h1>MCP servers</h1>
      <p className="note">The upstream MCP servers behind /mcp. Header values are stored encrypted and never shown again.</p>
      <ErrorNote error={error ?? servers.error} />
      <DataTable
        label="MCP servers"
        rows={servers.data}
        rowKey={(s) => s.id}
        columns={[
          ['Server', (s) => s.id],
          ['URL', (s) => s.url],
          ['Status', (s) => (s.status === 'ok' ? 'ok' : `error: ${s.error ?? ''}`), (s) => (s.status === 'ok' ? '' : 'error')],
          ['Tools', (s) => s.tools ?? '—'],
          ['Headers', (s) => s.headers.join(', ') || '—'],
          ['Price per call', (s) => s.pricePerCall ?? 'free'],
          ['Source', (s) => (s.source === 'file' ? 'config file' : 'admin')],
          [
            '',
            (s) =>
              s.source === 'admin' && (
                <button type="button" className="danger" onClick={() => void remove(s.id)}>
                  Delete
                </button>
              ),
            'row-actions',
          ],
        ]}
      />
      <form className="panel form" onSubmit={(e) => void add.submit(e)} aria-label="Add MCP server">
        <Field label="Server id">
          <input value={f.id} onChange={set('id')} required />
        </Field>
        <Field label="Server URL">
          <input type="url" value={f.url} onChange={set('url')} required />
        </Field>
        <Field label="Header name (optional)">
          <input value={f.header} onChange={set('header')} placeholder="Authorization" />
        </Field>
        <Field label="Header value">
          <input type="password" value={f.value} onChange={set('value')} autoComplete="off" />
        </Field>
        <Field label="Price per call (credits, optional)">
          <input type="number" min="0" step="any" value={f.price} onChange={set('price')} />
        </Field>
        <ErrorNote error={add.error} />
        <div className="actions">
          <button type="submit">Add server</button>
        </div>
      </form>
    </section>
  );
}
