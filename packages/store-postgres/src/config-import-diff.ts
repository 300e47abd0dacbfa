import { createHash } from 'node:crypto';

/** JSON with object keys sorted at every depth: one text per value, whatever order a file or jsonb wrote it in. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const fields = Object.keys(value)
      .filter((k) => (value as Record<string, unknown>)[k] !== undefined)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`);
    return `{${fields.join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

export const sha256Hex = (text: string) => createHash('sha256').update(text).digest('hex');

export interface CatalogueRow {
  kind: string;
  id: string;
  body: unknown;
}

/** The live entries by kind and id (a later row wins; tombstones left out), each body in canonical form. */
function live(rows: CatalogueRow[]): Map<string, string> {
  const byId = new Map(rows.map((r) => [`${r.kind}:${r.id}`, r.body]));
  return new Map([...byId].filter(([, body]) => body !== null && body !== undefined).map(([k, body]) => [k, canonicalJson(body)]));
}

/** What an import changes in the catalogue instances serve: entries added, changed and removed. */
export function catalogueDiff(before: CatalogueRow[], after: CatalogueRow[]): { added: number; changed: number; removed: number } {
  const [b, a] = [live(before), live(after)];
  let added = 0;
  let changed = 0;
  for (const [k, body] of a) {
    if (!b.has(k)) added++;
    else if (b.get(k) !== body) changed++;
  }
  const removed = [...b.keys()].filter((k) => !a.has(k)).length;
  return { added, changed, removed };
}
