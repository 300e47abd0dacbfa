/**
 * Client-facing model ids beyond a model's own: exact aliases and glob patterns (`claude-*`), so a coding
 * agent's default and background model ids route somewhere without the operator listing every id.
 * Precedence: a model's own id, then an exact alias, then the most specific pattern (most literal
 * characters; the earlier model on a tie).
 */

export interface AliasOwner {
  id: string;
  aliases?: string[];
}

interface Pattern {
  readonly source: string;
  readonly regex: RegExp;
  readonly literalChars: number;
  readonly modelId: string;
}

/** `*` matches any run of characters, `?` one character; everything else is literal. */
export function isAliasPattern(alias: string): boolean {
  return alias.includes('*') || alias.includes('?');
}

function compile(glob: string): RegExp {
  const body = glob
    .replace(/[.+^${}()|[\]\\]/g, '\\$&')
    .replace(/\*/g, '.*')
    .replace(/\?/g, '.');
  return new RegExp(`^${body}$`);
}

export class ModelAliasIndex {
  private readonly exact = new Map<string, string>();
  private readonly patterns: Pattern[] = [];

  constructor(models: readonly AliasOwner[]) {
    for (const m of models) {
      for (const alias of m.aliases ?? []) {
        if (!isAliasPattern(alias)) {
          if (!this.exact.has(alias)) this.exact.set(alias, m.id);
          continue;
        }
        const literalChars = alias.replace(/[*?]/g, '').length;
        this.patterns.push({ source: alias, regex: compile(alias), literalChars, modelId: m.id });
      }
    }
    // stable sort: the most specific pattern first, config order among equals
    this.patterns.sort((a, b) => b.literalChars - a.literalChars);
  }

  /** The model id a client-facing alias routes to, if any (a model's own id is not looked up here). */
  target(requested: string): string | undefined {
    const exact = this.exact.get(requested);
    if (exact !== undefined) return exact;
    return this.patterns.find((p) => p.regex.test(requested))?.modelId;
  }
}

/**
 * Aliases must route one way: an exact alias may not repeat a model id or another exact alias (patterns may overlap:
 * the most specific wins). The first problem as a config-file field and what is wrong with it, or undefined.
 */
export function aliasProblem(models: readonly AliasOwner[]): { field: string; problem: string } | undefined {
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
