/**
 * Jest's TypeScript transform: esbuild strips the types of one file at a time (the tsconfig sets isolatedModules, so
 * no file needs another to compile) and writes CommonJS with an inline source map. Type errors are `npm run
 * typecheck`'s job, not the test run's. `dynamicImport: true` keeps `import()` as it is (the compat lane loads
 * ESM-only client libraries with it); otherwise it becomes `require`, which jest's module registry serves.
 * ADR 0007 says why this replaced ts-jest.
 */
'use strict';
const { createHash } = require('node:crypto');
const { readFileSync } = require('node:fs');
const path = require('node:path');
const { transformSync, version } = require('esbuild');

// the repository's compiler options (target, class fields, module interop) decide the output, as they do for tsc
const TSCONFIG = readFileSync(path.join(__dirname, '..', 'tsconfig.json'), 'utf8');

module.exports = {
  createTransformer(options = {}) {
    const keepImport = options.dynamicImport === true;
    const salt = `${version}:${keepImport}:${TSCONFIG}`;
    return {
      canInstrument: false,
      getCacheKey(source, file) {
        return createHash('sha1').update(salt).update('\0').update(file).update('\0').update(source).digest('hex');
      },
      process(source, file) {
        const { code } = transformSync(source, {
          loader: file.endsWith('.tsx') ? 'tsx' : 'ts',
          format: 'cjs',
          target: 'es2022',
          platform: 'node',
          sourcemap: 'inline',
          sourcefile: file,
          tsconfigRaw: TSCONFIG,
          supported: keepImport ? {} : { 'dynamic-import': false },
        });
        return { code };
      },
    };
  },
};
