#!/usr/bin/env node
// `npx gateway <command>`: the admin CLI. In a checkout it runs the TypeScript sources through tsx (no build step);
// in the production image, which has no devDependencies, the bundled packages/server/dist/cli.js.
const { spawnSync } = require('node:child_process');
const path = require('node:path');
const root = path.join(__dirname, '..');
let args;
try {
  args = [require.resolve('tsx/cli'), path.join(root, 'packages', 'server', 'src', 'cli.ts')];
} catch {
  args = [path.join(root, 'packages', 'server', 'dist', 'cli.js')];
}
const r = spawnSync(process.execPath, [...args, ...process.argv.slice(2)], { stdio: 'inherit' });
process.exit(r.status ?? 1);
