import { jsonContent as json, pathParam, queryParam, type ParamDoc } from '@gateway/http-kit';
import { key } from './admin-keys.openapi';

/** What /openapi.json shows of the account admins' own routes (self-service.router.ts declares them). */
export const keyId = pathParam('id', 'The key id.');
const query = (name: string, description: string, form: Record<string, unknown> = {}) =>
  queryParam(name, description, { type: 'string', maxLength: 200, ...form });
/** Unix seconds, or an ISO 8601 date (a time after it); empty: absent. */
const TIME = { pattern: '^(\\d{1,12}|\\d{4}-\\d{2}-\\d{2}.*)?$' };
export const bounds =
  "Within the caller's bounds: a key the caller could have created itself (its group `exceeds_group`, its model allowlist `exceeds_allowlist`, limits no laxer than its own or the gateway's per-key ones `exceeds_rate_limit`, an expiry no later `exceeds_expiry`, a task scope no wider `exceeds_tasks`, a budget no larger `exceeds_budget`) and within the account's credit quota (`exceeds_quota`) and key count (`exceeds_key_count`): 400 naming the bound. A field left out (on creation) or null means the caller's own bound.";
/** Rotation and revocation: only of a key the caller could have created. */
export const touchBounds =
  'Only a key the caller could have created itself (docs/admin.md, "Self-service"): otherwise 400 with the `exceeds_*` code of the bound it is beyond.';
export const withSecret = json({
  ...key,
  properties: { ...key.properties, key: { type: 'string', description: 'The secret, shown this once.' } },
});

export const auditRecord = {
  type: 'object',
  properties: {
    id: { type: 'string' },
    at: { type: 'string', description: 'ISO 8601.' },
    actor: {
      type: 'object',
      properties: { type: { enum: ['admin_key', 'key', 'cli', 'sso', 'config_file', 'migration'] }, id: { type: 'string' } },
    },
    action: { type: 'string', description: '`<target type>.<verb>`: `key.create`, `key.rotate`, `account.update`, …' },
    target: { type: 'object', properties: { type: { type: 'string' }, id: { type: 'string' } } },
    account: { type: ['string', 'null'] },
    before: { description: 'The target before the change (secrets masked); null for a creation.' },
    after: { description: 'The target after the change (secrets masked); null for a deletion.' },
    request_id: { type: ['string', 'null'] },
    address: { type: ['string', 'null'] },
  },
};

export const auditParams: ParamDoc[] = [
  query('actor', 'An actor id, or `type:id` (`key:key_…`, `admin_key:admin`, `cli:cli`).'),
  query('action', 'An action, e.g. `key.create`.'),
  query('target', 'A target id, or `type:id`.'),
  query('from', 'From this instant (ISO 8601 or Unix seconds), inclusive.', TIME),
  query('to', 'Before this instant.', TIME),
  query('limit', 'At most this many records, newest first (default 1000, up to 10000).', { pattern: '^(\\d{1,5})?$' }),
  query('export', '`csv` for CSV (before/after as JSON text).', { enum: ['csv', 'json', ''] }),
];

export const auditList = json({ type: 'object', properties: { object: { const: 'list' }, data: { type: 'array', items: auditRecord } } });
