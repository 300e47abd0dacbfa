import { randomUUID } from 'node:crypto';

/**
 * A real dynamic `import()` in every runtime we run under: the esbuild CommonJS bundle, tsx, and jest's transform (which would
 * otherwise turn `import()` into `require()`, and require cannot load an ESM package or an .mjs file on Node 20).
 * The body carries a nonce: V8 caches `new Function` code by its source across contexts, and a cached function
 * keeps the module loader of the context that first compiled it (under jest, a test file that has already ended).
 */
export const importEsm = new Function('specifier', `return import(specifier); // ${randomUUID()}`) as (
  specifier: string,
) => Promise<Record<string, unknown>>;
