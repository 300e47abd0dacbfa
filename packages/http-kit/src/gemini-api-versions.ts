import type { RouteDoc } from './route-doc';

/**
 * The path versions the Gemini API answers under. @google/genai 2.x calls `/v1beta/…` and 3.x `/v1/…` by default:
 * every Gemini route (generateContent and friends, the model list, Veo's operations and files) is declared once and
 * served under both.
 */
export const GEMINI_API_VERSIONS = ['v1beta', 'v1'] as const;

/** An express path under every version: `/models/:model/operations/:id` → `/v1beta/models/…` and `/v1/models/…`. */
export function geminiPaths(rest: string): string[] {
  return GEMINI_API_VERSIONS.map((v) => `/${v}${rest}`);
}

/** A regex route under every version; `rest` is the pattern after the version, its capture groups keep their numbers. */
export function geminiRoute(rest: string): RegExp {
  return new RegExp(`^/(?:${GEMINI_API_VERSIONS.join('|')})${rest}$`);
}

/** Route docs written for `/v1beta/…`, once per version, for the OpenAPI document. */
export function atGeminiVersions(docs: readonly RouteDoc[]): RouteDoc[] {
  return docs.flatMap((d) => GEMINI_API_VERSIONS.map((v) => ({ ...d, path: d.path.replace(/^\/v1beta\//, `/${v}/`) })));
}
