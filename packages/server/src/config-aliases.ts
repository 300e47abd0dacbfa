/**
 * Model aliases must route one way: an exact alias may not repeat a model id or another exact alias
 * (patterns may overlap: the most specific wins, see core model-aliases.ts).
 */
export interface AliasProblem {
  field: string;
  problem: string;
}

export function aliasProblem(models: ReadonlyArray<{ id: string; aliases?: string[] }>): AliasProblem | undefined {
  const ids = new Set(models.map((m) => m.id));
  const taken = new Map<string, string>();
  for (const [i, m] of models.entries()) {
    for (const [j, alias] of (m.aliases ?? []).entries()) {
      if (alias.includes('*') || alias.includes('?')) continue;
      const field = `models.${i}.aliases.${j}`;
      if (ids.has(alias)) return { field, problem: `alias "${alias}" is already a model id` };
      const owner = taken.get(alias);
      if (owner !== undefined) return { field, problem: `alias "${alias}" already routes to "${owner}"` };
      taken.set(alias, m.id);
    }
  }
  return undefined;
}
