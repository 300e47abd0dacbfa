import { execSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type Locator, type Page } from 'playwright-core';

/** Debian's Chromium, which .ci/run installs with apt when it is missing. */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const ROOT = path.resolve(__dirname, '../../../..');
export const SCREENSHOTS = path.join(ROOT, 'docs/dashboard');

/**
 * describe() when Chromium is there, else a visible skip naming the reason; under REQUIRE_EXTERNAL_SERVICES=1 (CI) a
 * missing browser fails instead, so the browser tests never silently vanish.
 */
export function describeWithBrowser(name: string, body: () => void): void {
  if (existsSync(CHROMIUM)) return describe(name, body);
  if (process.env.REQUIRE_EXTERNAL_SERVICES === '1')
    throw new Error(`${CHROMIUM} is missing, but REQUIRE_EXTERNAL_SERVICES=1 says the browser tests must run.`);
  describe.skip(`${name} (skipped: ${CHROMIUM} not installed)`, body);
}

/** The built dashboard: a fresh clone has it from `npm ci`; a checkout without it builds it once here. */
export function ensureDashboardBuilt(): void {
  if (!existsSync(path.join(ROOT, 'packages/dashboard/dist/index.html')))
    execSync('npm run -s build -w @gateway/dashboard', { cwd: ROOT, stdio: 'inherit' });
}

export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/** Console errors and uncaught exceptions of a page (a CSP violation is a console error), for a test to assert none. */
export function collectPageErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  page.on('pageerror', (e) => errors.push(e.message));
  return errors;
}

/** With DASHBOARD_SCREENSHOTS=1 (`npm run dashboard:screenshots`), each page's picture for docs/dashboard.md. */
export async function screenshot(page: Page, name: string): Promise<void> {
  if (process.env.DASHBOARD_SCREENSHOTS !== '1') return;
  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`), fullPage: true });
}

/** The part of HTMLMediaElement the tests read (the server's tsconfig has no DOM types). */
interface MediaElement {
  readyState: number;
  duration: number;
  error: { code: number; message: string } | null;
  addEventListener(event: string, listener: () => void): void;
}

/** A `<video>`'s or `<audio>`'s duration once its metadata has loaded: the bytes reached the page and Chromium decoded them. */
export function mediaDuration(media: Locator): Promise<number> {
  return media.evaluate(
    (v: MediaElement) =>
      new Promise<number>((resolve, reject) => {
        const failed = () => reject(new Error(`media error ${v.error?.code}: ${v.error?.message}`));
        if (v.readyState >= 1) return resolve(v.duration);
        if (v.error) return failed();
        v.addEventListener('loadedmetadata', () => resolve(v.duration));
        v.addEventListener('error', failed);
      }),
  );
}

/** An `<img>` that has loaded and decoded (a broken image has no natural width). */
export async function imageDecoded(img: Locator): Promise<boolean> {
  return img.evaluate((i: { complete: boolean; naturalWidth: number }) => i.complete && i.naturalWidth > 0);
}
