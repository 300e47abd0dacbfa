#!/usr/bin/env node
// `npx gateway <command>`: runs the admin CLI through tsx so no build step is needed.
const { spawnSync } = require('node:child_process');
const path = require('node:path');
const tsx = require.resolve('tsx/cli');
const cli = path.join(__dirname, '..', 'packages', 'server', 'src', 'cli.ts');
const r = spawnSync(process.execPath, [tsx, cli, ...process.argv.slice(2)], { stdio: 'inherit' });
process.exit(r.status ?? 1);
