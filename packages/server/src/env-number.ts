/**
 * A whole-number environment variable: undefined when unset or empty; anything that is not a whole number of at
 * least `min` stops start-up with the variable's name.
 */
export function wholeNumberFromEnv(e: NodeJS.ProcessEnv, name: string, min: number): number | undefined {
  const raw = e[name];
  if (raw === undefined || raw === '') return undefined;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min) throw new Error(`${name} must be a whole number of at least ${min}; got ${JSON.stringify(raw)}`);
  return n;
}
