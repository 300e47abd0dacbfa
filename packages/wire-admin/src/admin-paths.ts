import type { CatalogueKind } from './admin-route';

const CATALOGUE: Record<CatalogueKind, string> = { provider: 'providers', model: 'models', group: 'groups' };
const at = (base: string, id: string) => `${base}/${encodeURIComponent(id)}`;

/** Where a client of the admin API (the CLI) finds each resource, as the routes here declare it. */
export const adminPaths = {
  accounts: '/admin/accounts',
  account: (id: string) => at('/admin/accounts', id),
  quota: (account: string) => `${at('/admin/accounts', account)}/quota`,
  keys: (account?: string) => (account === undefined ? '/admin/keys' : `/admin/keys?account=${encodeURIComponent(account)}`),
  key: (id: string) => at('/admin/keys', id),
  cachePurge: (filter: { model?: string; account?: string }) => {
    const q = new URLSearchParams(Object.entries(filter).filter((e): e is [string, string] => e[1] !== undefined)).toString();
    return q ? `/admin/cache?${q}` : '/admin/cache';
  },
  catalogue: (kind: CatalogueKind) => `/admin/${CATALOGUE[kind]}`,
  entry: (kind: CatalogueKind, id: string) => at(`/admin/${CATALOGUE[kind]}`, id),
};
