import { call, getJson } from '../api';
import type { Session } from '../session';
import { ErrorNote } from '../components/bits';
import { useLoad } from '../components/use-load';
import { DataTable } from '../components/data-table';
import { circuitStates, parseMetrics } from '../metrics-text';
import { deploymentsOf, publicModels, type CatalogueModel } from '../models-api';
import { priceLines } from '../prices';

const SHOWN = new Set(['id', 'kind', 'provider', 'upstreamModel', 'deployments', 'pricing', 'aliases', 'source']);

/** What a model can do beyond its kind: every other catalogue field, compactly. */
const capabilities = (m: CatalogueModel) =>
  Object.entries(m)
    .filter(([k]) => !SHOWN.has(k))
    .map(([k, v]) => `${k}: ${typeof v === 'object' ? JSON.stringify(v) : String(v)}`);

async function adminCatalogue(key: string) {
  const [models, metrics] = await Promise.all([
    getJson<{ data: CatalogueModel[] }>(key, '/admin/models'),
    call(key, '/metrics').then((r) => r.text()),
  ]);
  const circuits = circuitStates(parseMetrics(metrics));
  // a breaker per deployment, keyed by the upstream model (the model's own id when the catalogue names none)
  const health = (provider: string, upstream: string) => {
    const c = circuits.find((x) => x.provider === provider && x.upstreamModel === upstream);
    return c ? `${c.state}${c.detail ? ` (${c.detail})` : ''}` : 'no breaker state yet';
  };
  return models.data.map((m) => ({
    ...m,
    deployments: deploymentsOf(m).map((d) => ({ ...d, health: health(d.provider, d.upstreamModel ?? m.id) })),
  }));
}

export function Models({ session }: { session: Session }) {
  const admin = session.role === 'admin';
  const catalogue = useLoad(() => (admin ? adminCatalogue(session.key) : Promise.resolve([])), [session.key, admin]);
  const own = useLoad(() => (admin ? Promise.resolve([]) : publicModels(session.key)), [session.key, admin]);
  return (
    <section>
      <h1>Models</h1>
      <ErrorNote error={catalogue.error ?? own.error} />
      {admin ? (
        <DataTable
          label="Catalogue"
          rows={catalogue.data}
          rowKey={(m) => m.id}
          columns={[
            ['Model', (m) => m.id],
            ['Kind', (m) => m.kind],
            [
              'Deployments (health)',
              (m) =>
                m.deployments.map((d) => (
                  <div key={`${d.provider}/${d.upstreamModel ?? ''}`}>
                    {d.provider}
                    {d.upstreamModel ? ` → ${d.upstreamModel}` : ''} <span className={`state-${d.health}`}>({d.health})</span>
                  </div>
                )),
            ],
            [
              'Prices',
              (m) =>
                m.pricing
                  ? priceLines(m.pricing).map((p) => (
                      <div key={p} className="price">
                        {p}
                      </div>
                    ))
                  : 'free',
            ],
            [
              'Capabilities',
              (m) =>
                capabilities(m).map((c) => (
                  <div key={c} className="cap">
                    {c}
                  </div>
                )),
            ],
            ['Aliases', (m) => m.aliases?.join(', ') ?? '—'],
          ]}
        />
      ) : (
        <DataTable
          label="Models of this key"
          rows={own.data}
          rowKey={(m) => m.id}
          columns={[
            ['Model', (m) => m.id],
            ['Kind', (m) => m.kind],
            ['Name', (m) => m.displayName],
            ['Token limits in / out', (m) => `${m.inputTokenLimit} / ${m.outputTokenLimit}`],
          ]}
        />
      )}
      {!admin && <p className="note">Deployments, prices and upstream health are for the admin.</p>}
    </section>
  );
}
