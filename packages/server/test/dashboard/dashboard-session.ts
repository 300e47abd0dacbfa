import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { TestGateway } from '../support/test-gateway';
import { collectPageErrors, ensureDashboardBuilt, launchBrowser } from './browser';

/** What a dashboard browser test reads: valid inside its tests (the hooks below fill it). */
export interface DashboardSession {
  gw: TestGateway;
  page: Page;
  /** the current page's console errors and uncaught exceptions */
  errors: string[];
  /** the Main navigation */
  main(): ReturnType<Page['getByRole']>;
  nav(name: string): Promise<void>;
  /** signs in with an API key and waits for the navigation */
  signIn(key: string): Promise<void>;
}

/**
 * Registers the hooks every dashboard browser test file needs: one gateway and one Chromium for the file, a fresh
 * context and page (with its errors collected) for each test.
 */
export function useDashboardSession(startGateway: () => Promise<TestGateway>): DashboardSession {
  let browser: Browser | undefined;
  let context: BrowserContext | undefined;
  const s = {
    main: () => s.page.getByRole('navigation', { name: 'Main' }),
    nav: (name: string) => s.main().getByRole('link', { name, exact: true }).click(),
    signIn: async (key: string) => {
      await s.page.goto(`${s.gw.url}/dashboard/`);
      await s.page.getByLabel('API key', { exact: true }).fill(key);
      await s.page.getByRole('button', { name: 'Sign in' }).click();
      await s.main().getByRole('link', { name: 'Overview' }).waitFor();
      // signing in asks an admin route first, so an account key's sign-in leaves one expected 401 in the console
      s.errors.length = 0;
    },
  } as DashboardSession;

  beforeAll(async () => {
    ensureDashboardBuilt();
    s.gw = await startGateway();
    browser = await launchBrowser();
  });
  beforeEach(async () => {
    context = await browser!.newContext({ viewport: { width: 1280, height: 900 } });
    s.page = await context.newPage();
    s.errors = collectPageErrors(s.page);
  });
  afterEach(async () => {
    await context?.close();
  });
  afterAll(async () => {
    await browser?.close();
    await s.gw?.stop();
  });
  return s;
}

/** A download's or response stream's text. */
export async function streamText(stream: NodeJS.ReadableStream): Promise<string> {
  let text = '';
  for await (const chunk of stream) text += chunk.toString();
  return text;
}
