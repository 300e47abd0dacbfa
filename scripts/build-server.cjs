#!/usr/bin/env node
/**
 * `npm run build` (and `npm start` before it runs): the server, the admin CLI and the simulator's image worker bundled
 * into packages/server/dist as plain JavaScript. Our own packages are bundled; everything from npm stays an
 * ordinary require, so PGlite and the others find their files. Running the bundle instead of the TypeScript
 * sources under tsx saves about 50 MB of resident memory and the loader's esbuild child (docs/adr/0003).
 */
const { execSync } = require('node:child_process');
const { existsSync } = require('node:fs');
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
      // started by their path next to the running file: image-pool.ts's worker threads, db.ts's first-start child
      'image-worker': './packages/provider-simulator/src/image-worker.ts',
      'pglite-prepare': './packages/store-postgres/src/pglite-prepare.ts',
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
  .then(ensureDashboard)
  .catch(() => process.exit(1));

/**
 * The dashboard's build (packages/dashboard/dist) comes from `npm ci`'s prepare step; an install that skipped scripts
 * gets it here, once, so /dashboard works after `npm start`. A build already there is kept (`npm run dashboard:build`).
 */
function ensureDashboard() {
  if (process.argv.includes('--server-only') || existsSync(path.join(root, 'packages/dashboard/dist/index.html'))) return;
  console.log('building the dashboard (packages/dashboard/dist)…');
  execSync('npm run -s build -w @gateway/dashboard', { cwd: root, stdio: 'inherit' });
}
