import http from 'node:http';
import type { AddressInfo } from 'node:net';

// oidc-provider is ESM-only: a real dynamic import (the test transform turns import() into require() outside compat/)
import { importEsm } from '@gateway/provider-kit';

export const OIDC_CLIENT_ID = 'gateway-dashboard';
export const OIDC_CLIENT_SECRET = 'test-client-secret-0123456789abcdef';

export interface TestOidcProvider {
  issuer: string;
  /** registers the gateway as the provider's client: its callback URL is known only once the gateway listens */
  register(redirectUri: string): Promise<void>;
  close(): Promise<void>;
}

/** The part of oidc-provider's Provider the test provider uses. */
interface Interaction {
  uid: string;
  prompt: { name: string; details: { missingOIDCClaims?: string[] } };
  params: { client_id?: unknown; scope?: unknown };
  session?: { accountId?: string };
}
interface OidcProvider {
  callback(): http.RequestListener;
  interactionDetails(req: http.IncomingMessage, res: http.ServerResponse): Promise<Interaction>;
  interactionFinished(
    req: http.IncomingMessage,
    res: http.ServerResponse,
    result: object,
    o: { mergeWithLastSubmission: boolean },
  ): Promise<void>;
  Grant: new (o: { accountId?: string; clientId: unknown }) => {
    addOIDCScope(s: string): void;
    addOIDCClaims(c: string[]): void;
    save(): Promise<string>;
  };
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

const readForm = (req: http.IncomingMessage) =>
  new Promise<URLSearchParams>((resolve, reject) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString('utf8')));
    req.on('end', () => resolve(new URLSearchParams(body)));
    req.on('error', reject);
  });

/**
 * A real OpenID provider (the `oidc-provider` package) on 127.0.0.1 for the SSO tests. Its login page asks for a
 * username ("Username", "Sign in"; "Cancel" answers access_denied); the person's `groups` claim is `users[name]`.
 * Consent is given at once. Claims ride in the ID token.
 */
export async function startOidcProvider(users: Readonly<Record<string, readonly string[]>>): Promise<TestOidcProvider> {
  let handle: http.RequestListener = (_req, res) => res.writeHead(503).end('not registered yet');
  const server = http.createServer((req, res) => handle(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    issuer,
    async register(redirectUri) {
      const { default: Provider } = (await importEsm('oidc-provider')) as unknown as {
        default: new (issuer: string, config: object) => OidcProvider;
      };
      const provider = new Provider(issuer, {
        clients: [{ client_id: OIDC_CLIENT_ID, client_secret: OIDC_CLIENT_SECRET, redirect_uris: [redirectUri] }],
        claims: { openid: ['sub', 'groups'] },
        conformIdTokenClaims: false,
        cookies: { keys: ['test-cookie-key-0123456789'] },
        features: { devInteractions: { enabled: false } },
        interactions: { url: (_ctx: unknown, interaction: { uid: string }) => `/interaction/${interaction.uid}` },
        findAccount: (_ctx: unknown, id: string) => ({ accountId: id, claims: () => ({ sub: id, groups: users[id] ?? [] }) }),
      });
      const callback = provider.callback();
      handle = (req, res) => {
        if (!req.url?.startsWith('/interaction/')) return callback(req, res);
        void interaction(provider, req, res).catch((e: Error) => res.writeHead(500).end(e.message));
      };
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

async function interaction(provider: OidcProvider, req: http.IncomingMessage, res: http.ServerResponse) {
  const details = await provider.interactionDetails(req, res);
  if (details.prompt.name === 'consent') {
    const grant = new provider.Grant({ accountId: details.session?.accountId, clientId: details.params.client_id });
    grant.addOIDCScope(String(details.params.scope));
    if (details.prompt.details.missingOIDCClaims) grant.addOIDCClaims(details.prompt.details.missingOIDCClaims);
    return provider.interactionFinished(req, res, { consent: { grantId: await grant.save() } }, { mergeWithLastSubmission: true });
  }
  if (req.method === 'POST') {
    const form = await readForm(req);
    if (form.has('cancel'))
      return provider.interactionFinished(
        req,
        res,
        { error: 'access_denied', error_description: 'The person cancelled.' },
        { mergeWithLastSubmission: false },
      );
    return provider.interactionFinished(req, res, { login: { accountId: form.get('login') ?? '' } }, { mergeWithLastSubmission: false });
  }
  res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end(`<!doctype html>
<html lang="en"><head><title>Test identity provider</title></head><body><main>
<h1>Test identity provider</h1>
<form method="post" action="/interaction/${escapeHtml(details.uid)}">
<label>Username <input name="login" autocomplete="off"></label>
<button type="submit">Sign in</button>
<button type="submit" name="cancel" value="1">Cancel</button>
</form></main></body></html>`);
}

/** A browser's redirect-following with cookies, for sign-ins driven without a browser (per host; paths ignored). */
export class CookieBrowser {
  private readonly jars = new Map<string, Map<string, string>>();

  cookie(url: string, name: string): string | undefined {
    return this.jars.get(new URL(url).host)?.get(name);
  }

  /**
   * Follows redirects; a page with the provider's login form is submitted with `login` (or cancelled). `stopAt`: the
   * answer of the first URL starting with it is returned as it is (a redirect included).
   */
  async visit(url: string, login: { username?: string; cancel?: boolean; stopAt?: string } = {}): Promise<Response> {
    let next: { url: string; method: string; body?: string } | undefined = { url, method: 'GET' };
    for (let hops = 0; next && hops < 20; hops++) {
      const res = await this.fetch(next.url, next.method, next.body);
      if (login.stopAt && next.url.startsWith(login.stopAt)) return res;
      const location = res.headers.get('location');
      if (res.status >= 300 && res.status < 400 && location) {
        next = { url: new URL(location, next.url).href, method: 'GET' };
        continue;
      }
      const text = await res.clone().text();
      const form = /<form method="post" action="([^"]+)"/.exec(text);
      if (!form || text.includes('Sign-in refused')) return res;
      const body = login.cancel ? 'cancel=1' : `login=${encodeURIComponent(login.username ?? '')}`;
      next = {
        url: new URL(
          form[1]!.replace(/&#(\d+);/g, (_m, c: string) => String.fromCharCode(Number(c))),
          next.url,
        ).href,
        method: 'POST',
        body,
      };
    }
    throw new Error('too many redirects');
  }

  async fetch(url: string, method = 'GET', body?: string, headers: Record<string, string> = {}): Promise<Response> {
    const host = new URL(url).host;
    const jar = this.jars.get(host) ?? new Map<string, string>();
    this.jars.set(host, jar);
    const res = await fetch(url, {
      method,
      redirect: 'manual',
      body,
      headers: {
        ...(body !== undefined ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
        ...headers,
        ...(jar.size ? { cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; ') } : {}),
      },
    });
    for (const line of res.headers.getSetCookie()) {
      const [pair = '', ...attrs] = line.split(';');
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq).trim();
      const gone = attrs.some((a) => /^\s*max-age=0\s*$/i.test(a) || /^\s*expires=Thu, 01 Jan 1970/i.test(a));
      if (gone || eq === pair.length - 1) jar.delete(name);
      else jar.set(name, pair.slice(eq + 1).trim());
    }
    return res;
  }
}
