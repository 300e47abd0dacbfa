// `npm start` on a checkout whose install skipped the `prepare` build (e.g. --ignore-scripts): build the dashboard
// once, so /dashboard works; a build already there is kept (rebuild with `npm run dashboard:build`).
import { execSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(__dirname, '..');
if (!existsSync(path.join(root, 'packages/dashboard/dist/index.html'))) {
  console.log('building the dashboard (packages/dashboard/dist)…');
  execSync('npm run -s build -w @gateway/dashboard', { cwd: root, stdio: 'inherit' });
}
