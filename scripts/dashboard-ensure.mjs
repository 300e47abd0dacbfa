// `npm start` on a checkout whose install skipped the `prepare` build (e.g. --ignore-scripts): build the dashboard
// once, so /dashboard works; a build already there is kept (rebuild with `npm run dashboard:build`).
import { execSync } from 'node:child_process';
import { existsSync } from 'node:fs';

if (!existsSync(new URL('../packages/dashboard/dist/index.html', import.meta.url))) {
  console.log('building the dashboard (packages/dashboard/dist)…');
  execSync('npm run -s build -w @gateway/dashboard', { stdio: 'inherit' });
}
