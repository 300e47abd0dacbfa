import type { RouteDoc } from './route-doc';

/**
 * The path versions the Gemini API answers under. @google/genai 2.x calls `/v1beta/…` and 3.x `/v1/…` by default:
 * every Gemini route (generateContent and friends, the model list, Veo's operations and files) is declared once and
 * served under both.
 */
export const GEMINI_API_VERSIONS = ['v1beta', 'v1'] as const;

/** Routes declared for `/v1beta/…`, once per version: each copy is mounted and documented. */
export function atGeminiVersions<R extends RouteDoc>(routes: readonly R[]): R[] {
  return routes.flatMap((r) => GEMINI_API_VERSIONS.map((v) => ({ ...r, path: r.path.replace(/^\/v1beta\//, `/${v}/`) })));
}
