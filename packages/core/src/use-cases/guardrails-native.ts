import type { NativeRequest } from '../native-request';

/**
 * The client's native body with the texts the input guardrails changed rewritten where they stand, so an upstream of
 * the client's dialect still gets the client's exact body (Anthropic `cache_control` blocks, unread fields) but masked.
 * Each changed text must stand in the body as a whole string value; when one does not (tool-call arguments, which a
 * body holds as an object; a system prompt joined from several blocks), when two equal texts were changed apart, or
 * when a stored history goes ahead of the body, there is no safe rewrite: undefined, and the upstream gets the
 * canonical, masked request.
 */
export function maskedNative(native: NativeRequest, before: readonly string[], after: readonly string[]): NativeRequest | undefined {
  if (native.history) return undefined;
  const changes = new Map<string, string>();
  for (const [i, text] of before.entries()) {
    const masked = after[i] ?? text;
    if (masked === text) continue;
    if ((changes.get(text) ?? masked) !== masked) return undefined;
    changes.set(text, masked);
  }
  const found = new Set<string>();
  const body = rewriteValues(native.body, (s) => {
    const masked = changes.get(s);
    if (masked === undefined) return s;
    found.add(s);
    return masked;
  });
  return found.size === changes.size ? { ...native, body } : undefined;
}

/** Every string value in a JSON value through `f` (keys kept). */
export function rewriteValues<T>(value: T, f: (s: string) => string): T {
  if (typeof value === 'string') return f(value) as T;
  if (Array.isArray(value)) return value.map((v) => rewriteValues(v, f)) as T;
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, rewriteValues(v, f)])) as T;
  return value;
}
