#!/usr/bin/env node
/**
 * `npm run build` (and before `npm start`): the server, the admin CLI and the simulator's image worker bundled
 * into packages/server/dist as plain JavaScript. Our own packages are bundled; everything from npm stays an
 * ordinary require, so PGlite and the others find their files. Running the bundle instead of the TypeScript
 * sources under tsx saves about 50 MB of resident memory and the loader's esbuild child (docs/adr/0003).
 */
const path = require('node:path');
const esbuild = require('esbuild');

const root = path.resolve(__dirname, '..');
const ours = (spec) => spec.startsWith('@gateway/');

esbuild
  .build({
    absWorkingDir: root,
    entryPoints: {
      main: './packages/server/src/main.ts',
      cli: './packages/server/src/cli.ts',
      // image-pool.ts starts it by its path next to the running file
      'image-worker': './packages/provider-simulator/src/image-worker.ts',
    },
    outdir: 'packages/server/dist',
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    sourcemap: 'linked',
    logLevel: 'warning',
    plugins: [
      {
        name: 'npm-packages-external',
        setup(build) {
          build.onResolve({ filter: /^[^./]/ }, (args) =>
            args.kind === 'entry-point' || ours(args.path) ? undefined : { path: args.path, external: true },
          );
        },
      },
    ],
  })
  .catch(() => process.exit(1));
