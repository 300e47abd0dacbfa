import { createHmac } from 'node:crypto';
import { ProviderConfigError } from '@gateway/provider-kit';

/** How long a signed token is valid; a new one is made when less than a third of that is left. */
const TOKEN_SECONDS = 1800;
const REFRESH_BEFORE_SECONDS = 600;
/** Kling's docs sign `nbf` a few seconds in the past: clocks differ. */
const NBF_SKEW_SECONDS = 5;

const b64url = (v: string | Buffer) => Buffer.from(v).toString('base64url');

/** `apiKey` of a kling entry is `ACCESS_KEY:SECRET_KEY` (one secret, so it can come from one env variable). */
export function parseKlingKey(apiKey: string): { accessKey: string; secretKey: string } {
  const i = apiKey.indexOf(':');
  if (i <= 0 || i === apiKey.length - 1) {
    throw new ProviderConfigError('apiKey', 'must be "ACCESS_KEY:SECRET_KEY" (the two Kling keys joined by a colon)');
  }
  return { accessKey: apiKey.slice(0, i), secretKey: apiKey.slice(i + 1) };
}

/** HS256 JWT with `iss` = access key, `exp` and `nbf`, as Kling's API authentication asks. */
export function signKlingToken(accessKey: string, secretKey: string, nowSeconds: number): string {
  const head = b64url(JSON.stringify({ alg: 'HS256', typ: 'JWT' }));
  const body = b64url(JSON.stringify({ iss: accessKey, exp: nowSeconds + TOKEN_SECONDS, nbf: nowSeconds - NBF_SKEW_SECONDS }));
  const sig = b64url(createHmac('sha256', secretKey).update(`${head}.${body}`).digest());
  return `${head}.${body}.${sig}`;
}

/** Hands out the current bearer token, signing a new one before the old one runs out. */
export class KlingTokens {
  private token = '';
  private expiresAt = 0;

  constructor(
    private readonly accessKey: string,
    private readonly secretKey: string,
    private readonly now: () => number = Date.now,
  ) {}

  authorization(): string {
    const nowSeconds = Math.floor(this.now() / 1000);
    if (!this.token || nowSeconds >= this.expiresAt - REFRESH_BEFORE_SECONDS) {
      this.token = signKlingToken(this.accessKey, this.secretKey, nowSeconds);
      this.expiresAt = nowSeconds + TOKEN_SECONDS;
    }
    return `Bearer ${this.token}`;
  }
}
