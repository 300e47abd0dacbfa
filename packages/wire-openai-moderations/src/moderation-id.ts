import { randomBytes } from 'node:crypto';

/** `modr-` and 29 random characters, as OpenAI's ids look. */
export function newModerationId(): string {
  return `modr-${randomBytes(22).toString('base64url').slice(0, 29)}`;
}
