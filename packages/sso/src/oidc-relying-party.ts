import type * as OpenIdClient from 'openid-client';

/** Single sign-on for the dashboard (docs/admin.md, "Single sign-on"): on when OIDC_ISSUER is set. */
export interface OidcEnv {
  /** OIDC_ISSUER: the provider's issuer URL (its discovery document is read from it) */
  issuer: string;
  /** OIDC_CLIENT_ID, OIDC_CLIENT_SECRET: this gateway as a confidential client of the provider */
  clientId: string;
  clientSecret: string;
  /** OIDC_ROLE_CLAIM (default `groups`): the claim whose values the config file's `sso.roles` maps to roles */
  roleClaim: string;
  /** OIDC_SCOPES (default `openid profile email`): some providers release the role claim only for a scope of its own */
  scopes: string;
}

/**
 * openid-client is ESM-only: the server hands in its loader (a real import() that survives its CommonJS bundle and
 * jest), called only on a gateway that has single sign-on.
 */
export type ModuleLoader = (specifier: string) => Promise<Record<string, unknown>>;

/** Why a sign-in could not finish, as the refusal page says it (never a 500: the person gets a page that explains). */
export class SignInRefused extends Error {
  constructor(
    readonly status: 400 | 403 | 502,
    readonly reason: string,
    message: string,
  ) {
    super(message);
  }
}

/** What the redirect to the provider carries and what the callback needs back (kept server-side under the state). */
export interface SignInStart {
  url: string;
  state: string;
  codeVerifier: string;
  nonce: string;
}

const LOOPBACK_ISSUER = /^http:\/\/(127\.0\.0\.1|localhost|\[::1\])(:\d+)?(\/|$)/;

/**
 * The gateway as an OpenID Connect relying party: authorization code flow with PKCE (S256), state and nonce, through
 * openid-client (discovery, token exchange, ID token validation). The provider's metadata is discovered on the first
 * sign-in and kept; a failed discovery is retried on the next one. Plain http is allowed for a loopback issuer only.
 */
export class OidcRelyingParty {
  private config?: Promise<{ lib: typeof OpenIdClient; config: OpenIdClient.Configuration }>;

  constructor(
    private readonly env: OidcEnv,
    private readonly load: ModuleLoader,
  ) {}

  private discover() {
    this.config ??= (async () => {
      const lib = (await this.load('openid-client')) as unknown as typeof OpenIdClient;
      const insecure = LOOPBACK_ISSUER.test(this.env.issuer) ? { execute: [lib.allowInsecureRequests] } : undefined;
      const config = await lib.discovery(new URL(this.env.issuer), this.env.clientId, this.env.clientSecret, undefined, insecure);
      return { lib, config };
    })();
    return this.config.catch((e: unknown) => {
      this.config = undefined;
      throw new SignInRefused(502, 'provider_unreachable', `The identity provider could not be reached (${(e as Error).message}).`);
    });
  }

  async start(redirectUri: string): Promise<SignInStart> {
    const { lib, config } = await this.discover();
    const codeVerifier = lib.randomPKCECodeVerifier();
    const state = lib.randomState();
    const nonce = lib.randomNonce();
    const url = lib.buildAuthorizationUrl(config, {
      redirect_uri: redirectUri,
      scope: this.env.scopes,
      code_challenge: await lib.calculatePKCECodeChallenge(codeVerifier),
      code_challenge_method: 'S256',
      state,
      nonce,
    });
    return { url: url.href, state, codeVerifier, nonce };
  }

  /**
   * The provider's answer at the callback URL, checked (state, PKCE, ID token signature, issuer, audience, nonce) and
   * exchanged; answers the subject and the role claim, from the ID token or else from the userinfo endpoint.
   */
  async finish(
    callbackUrl: URL,
    expected: { state: string; codeVerifier: string; nonce: string },
  ): Promise<{ subject: string; claim: unknown }> {
    const { lib, config } = await this.discover();
    let tokens: Awaited<ReturnType<typeof OpenIdClient.authorizationCodeGrant>>;
    try {
      tokens = await lib.authorizationCodeGrant(config, callbackUrl, {
        pkceCodeVerifier: expected.codeVerifier,
        expectedState: expected.state,
        expectedNonce: expected.nonce,
        idTokenExpected: true,
      });
    } catch (e) {
      if (e instanceof lib.AuthorizationResponseError)
        throw new SignInRefused(
          403,
          'provider_refused',
          `The identity provider refused the sign-in: ${e.error}${e.error_description ? ` (${e.error_description})` : ''}.`,
        );
      throw new SignInRefused(
        502,
        'token_exchange_failed',
        `The identity provider's answer could not be verified (${(e as Error).message}).`,
      );
    }
    const claims = tokens.claims()!;
    const claim = claims[this.env.roleClaim] ?? (await this.userinfoClaim(lib, config, tokens.access_token, claims.sub));
    return { subject: claims.sub, claim };
  }

  private async userinfoClaim(lib: typeof OpenIdClient, config: OpenIdClient.Configuration, accessToken: string, sub: string) {
    try {
      return (await lib.fetchUserInfo(config, accessToken, sub))[this.env.roleClaim];
    } catch {
      return undefined; // no userinfo endpoint or no claim there: no role, refused with the page that says so
    }
  }
}
