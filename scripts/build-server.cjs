#!/usr/bin/env node
/**
 * `npm run build` (and `npm start` before it runs): the server, the admin CLI and the simulator's image worker bundled
 * into packages/server/dist as plain JavaScript. Our own packages are bundled; everything from npm stays an
 * ordinary require, so PGlite and the others find their files. Running the bundle instead of the TypeScript
 * sources under tsx saves about 50 MB of resident memory and the loader's esbuild child (docs/adr/0003).
 *
 * Safe when several starts run it at once from one checkout (docs/operations.md, "Running under a supervisor"):
 * - `--if-stale` (what `npm start` passes) skips the build when the stamp file says the bundle was made from the
 *   sources as they are now (a hash of every input file esbuild read, this script and tsconfig.json);
 * - one build at a time: a lock file (`dist/.build.lock`, holding the builder's pid) makes the others wait, then
 *   find the bundle fresh; a lock left by a dead builder is taken over;
 * - every output file is written beside its place and renamed over it, so a gateway starting from the old bundle
 *   never reads a half-written file.
 */
const { execSync } = require('node:child_process');
const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');
const { setTimeout: sleep } = require('node:timers/promises');
const esbuild = require('esbuild');

const root = path.resolve(__dirname, '..');
const outdir = path.join(root, 'packages/server/dist');
const stampFile = path.join(outdir, '.build-stamp.json');
const lockFile = path.join(outdir, '.build.lock');
const ours = (spec) => spec.startsWith('@gateway/');
const ifStale = process.argv.includes('--if-stale');
const LOCK_WAIT_MS = 5 * 60_000;

const options = {
  absWorkingDir: root,
  entryPoints: {
    main: './packages/server/src/main.ts',
    cli: './packages/server/src/cli.ts',
    // started by their path next to the running file: image-pool.ts's worker threads, db.ts's first-start child and
    // the embedded database's thread (pglite-thread-client.ts)
    'image-worker': './packages/provider-simulator/src/image-worker.ts',
    'pglite-prepare': './packages/store-postgres/src/pglite-prepare.ts',
    'pglite-thread': './packages/store-postgres/src/pglite-thread.ts',
  },
  outdir: 'packages/server/dist',
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  sourcemap: 'linked',
  logLevel: 'warning',
  write: false,
  metafile: true,
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
};

main().catch((e) => {
  if (e && e.message && !e.errors) console.error(`build-server: ${e.message}`);
  process.exit(1);
});

async function main() {
  if (ifStale && isFresh() && dashboardReady()) return;
  fs.mkdirSync(outdir, { recursive: true });
  await withLock(async () => {
    // another start may have built while this one waited for the lock
    if (!(ifStale && isFresh())) await build();
    ensureDashboard();
  });
}

async function build() {
  const result = await esbuild.build(options);
  for (const file of result.outputFiles) writeAtomically(file.path, file.path.endsWith('.js') ? asciiOnly(file.text) : file.contents);
  const inputs = {};
  for (const input of [...Object.keys(result.metafile.inputs), ...fixedInputs()]) inputs[input] = hashOf(input);
  writeAtomically(stampFile, JSON.stringify({ esbuild: esbuild.version, outputs: outputNames(), inputs }));
}

/**
 * The bundle with every character outside ASCII written as a `\\u` escape. esbuild escapes them in strings and names
 * but keeps them in the comments and regular expressions it carries over, and one such character anywhere makes V8
 * hold the whole source as two bytes a character (main.js: 2.75 MB of an idle gateway's heap instead of 1.4 MB).
 * An escape means the same character in a string, a regular expression or a template's cooked value; it would differ
 * only in a tagged template's raw text, which no bundled source writes outside ASCII.
 */
function asciiOnly(text) {
  return text.replace(/[^\x00-\x7f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** The files besides esbuild's inputs that decide the output: this script and the path mapping. */
function fixedInputs() {
  return [path.relative(root, path.join(__dirname, 'build-server.cjs')), 'tsconfig.json'].filter((f) => fs.existsSync(path.join(root, f)));
}

function outputNames() {
  return Object.keys(options.entryPoints).map((name) => `${name}.js`);
}

/** True when the stamp names this esbuild, every output exists, and no input changed since it was written. */
function isFresh() {
  let stamp;
  try {
    stamp = JSON.parse(fs.readFileSync(stampFile, 'utf8'));
  } catch {
    return false;
  }
  if (stamp.esbuild !== esbuild.version) return false;
  if (!outputNames().every((f) => (stamp.outputs || []).includes(f) && fs.existsSync(path.join(outdir, f)))) return false;
  for (const f of fixedInputs()) if (!(f in stamp.inputs)) return false;
  return Object.entries(stamp.inputs).every(([file, hash]) => hashOf(file) === hash);
}

function hashOf(file) {
  try {
    return crypto
      .createHash('sha256')
      .update(fs.readFileSync(path.join(root, file)))
      .digest('base64url');
  } catch {
    return 'missing';
  }
}

function writeAtomically(file, contents) {
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, contents);
  fs.renameSync(tmp, file);
}

/** Runs `fn` holding dist/.build.lock; waits while a live process holds it, takes over one whose holder is gone. */
async function withLock(fn) {
  const deadline = Date.now() + LOCK_WAIT_MS;
  for (;;) {
    try {
      fs.writeFileSync(lockFile, String(process.pid), { flag: 'wx' });
      break;
    } catch (e) {
      if (e.code !== 'EEXIST') throw e;
    }
    if (!holderAlive()) {
      fs.rmSync(lockFile, { force: true });
      continue;
    }
    if (Date.now() > deadline) throw new Error(`${lockFile} is still held after ${LOCK_WAIT_MS / 1000} s; remove it if no build runs`);
    await sleep(100);
  }
  try {
    await fn();
  } finally {
    fs.rmSync(lockFile, { force: true });
  }
}

function holderAlive() {
  let pid;
  try {
    pid = Number(fs.readFileSync(lockFile, 'utf8'));
  } catch {
    return false; // released meanwhile
  }
  // an empty file: its writer is between creating and writing it
  if (!pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return e.code === 'EPERM';
  }
}

/**
 * The dashboard's build (packages/dashboard/dist) comes from `npm ci`'s prepare step; an install that skipped scripts
 * gets it here, once, so /dashboard works after `npm start`. A build already there is kept (`npm run dashboard:build`).
 */
function ensureDashboard() {
  if (dashboardReady()) return;
  console.log('building the dashboard (packages/dashboard/dist)…');
  execSync('npm run -s build -w @gateway/dashboard', { cwd: root, stdio: 'inherit' });
}

function dashboardReady() {
  return process.argv.includes('--server-only') || fs.existsSync(path.join(root, 'packages/dashboard/dist/index.html'));
}
