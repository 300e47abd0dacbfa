/** What differs in OpenAI's own API from the shared chat-completions shapes (provider-kit chat-api.ts). */
export const OPENAI_DEFAULT_BASE_URL = 'https://api.openai.com/v1';

/** OpenAI names its request id header x-request-id. */
export const OPENAI_REQUEST_ID_HEADERS = ['x-request-id'];

/** `error.code` values with a meaning of their own. */
export const OPENAI_QUOTA_CODES = new Set(['insufficient_quota', 'billing_hard_limit_reached']);
export const OPENAI_POLICY_CODES = new Set(['content_policy_violation', 'content_filter', 'moderation_blocked']);
