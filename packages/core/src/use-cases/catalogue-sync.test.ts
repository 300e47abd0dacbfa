import type { CatalogueEntry } from '../ports/catalogue-repository.port';
import { CatalogueSync } from './catalogue-sync';

/** A store whose version the test moves, and a target that builds the entries' ids (refusing an entry named `bad`). */
function sync(entries: CatalogueEntry[]) {
  const state = { version: 1, settings: null };
  const applied: string[][] = [];
  const logged: string[] = [];
  const build = (_label: string, list: CatalogueEntry[]) => {
    if (list.some((e) => e.id === 'bad' && e.body !== null)) throw new Error('bad entry');
    return list.filter((e) => e.body !== null).map((e) => e.id);
  };
  const target = { build, check: async () => undefined, apply: async (ids: string[]) => void applied.push(ids) };
  const s = new CatalogueSync({ state: async () => state, entries: async () => entries }, target, (_l, m) => logged.push(m));
  return { s, state, applied, logged, entries };
}

const entry = (id: string, body: Record<string, unknown> | null = {}): CatalogueEntry => ({ kind: 'model', id, body, source: 'file' });

describe('CatalogueSync', () => {
  it('applies the stored config only when its version moved', async () => {
    const { s, state, applied, entries } = sync([entry('a')]);
    expect(await s.reload()).toBe(true);
    expect(await s.reload()).toBe(false);
    entries.push(entry('b'));
    state.version = 2;
    expect(await s.reload()).toBe(true);
    expect(applied).toEqual([['a'], ['a', 'b']]);
  });

  it('a broken stored config throws at start-up (strict), and is logged and skipped afterwards', async () => {
    await expect(sync([entry('bad')]).s.reload({ strict: true })).rejects.toThrow('bad entry');
    const { s, applied, logged } = sync([entry('bad')]);
    expect(await s.reload()).toBe(false);
    expect(applied).toEqual([]);
    expect(logged).toEqual(['config reload failed; keeping the previous config']);
  });

  it('validates a change against the other entries, the change replacing the stored one', async () => {
    const { s } = sync([entry('a'), entry('bad', null)]);
    await expect(s.validate('model', 'bad', {})).rejects.toThrow('bad entry');
    await expect(s.validate('model', 'a', null)).resolves.toBeUndefined();
  });
});
