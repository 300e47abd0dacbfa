import { invalid, type BudgetPeriod, type KeyChangeFields, type KeyCreateFields, type SelfServiceKeyFields } from '@gateway/core';
import { fieldRefusals, jsonRequestBody } from '@gateway/http-kit';
import { creditLimit, settings } from './admin-keys.openapi';
import { ACCOUNT_REFUSALS, KEY_REFUSALS, KEY_SETTING_REFUSALS, MAX_GRACE_SECONDS, QUOTA_REFUSALS, ROTATE_REFUSALS } from './admin-refusals';

/**
 * The admin and self-service bodies, declared once: the schema /openapi.json shows is the one mountRoutes checks
 * before the handler, unknown fields refused, each refusal with the code and wording of its field.
 */
const object = (properties: Record<string, unknown>, required: string[] = []) => ({
  type: 'object',
  additionalProperties: false,
  ...(required.length ? { required } : {}),
  properties,
});

/** The fields an unknown-field refusal names, in the order the API has always listed them. */
const SETTING_NAMES = ['name', 'expires_at', 'models', 'limits', 'budget', 'tasks'];
const KEY_NAMES = ['account', 'group', 'role', ...SETTING_NAMES];
const CHANGE_NAMES = ['role', ...SETTING_NAMES];

const refuse = fieldRefusals;

export const createAccountBody = jsonRequestBody<{ id: string; name?: string }>(
  object({ id: { type: 'string', pattern: '^[A-Za-z0-9_.-]{1,64}$' }, name: { type: 'string', maxLength: 200 } }, ['id']),
  { refuse: refuse(ACCOUNT_REFUSALS, ['id', 'name']) },
);

export const updateAccountBody = jsonRequestBody<{ name?: string | null }>(object({ name: { type: ['string', 'null'], maxLength: 200 } }), {
  refuse: refuse(ACCOUNT_REFUSALS, ['name']),
});

export const setQuotaBody = jsonRequestBody<{ credit_limit: number | null; period?: BudgetPeriod | null }>(
  object(
    {
      credit_limit: { ...creditLimit, description: 'null: unlimited.' },
      period: {
        enum: ['daily', 'monthly', null],
        description: 'When used credits start again from zero (UTC); null: never; absent: kept.',
      },
    },
    ['credit_limit'],
  ),
  { refuse: refuse(QUOTA_REFUSALS, ['credit_limit', 'period']) },
);

export const createKeyBody = jsonRequestBody<KeyCreateFields>(
  object({ account: { type: 'string' }, group: { type: ['string', 'null'], default: 'default' }, ...settings }, ['account']),
  { refuse: refuse(KEY_REFUSALS, KEY_NAMES) },
);

export const updateKeyBody = jsonRequestBody<KeyChangeFields>(object(settings), { refuse: refuse(KEY_SETTING_REFUSALS, CHANGE_NAMES) });

/** An account admin's settings: null also for `tasks`, meaning the caller's own bound, as for every other field. */
const selfServiceSettings = { ...settings, tasks: { ...settings.tasks, enum: ['account', 'own', null] } };

const OWN_ACCOUNT = {
  account: () => invalid('unknown_field', 'Unknown field "account": a key made here belongs to the caller\'s own account.', 'account'),
};

export const selfServiceCreateBody = jsonRequestBody<SelfServiceKeyFields & { group?: string | null }>(
  object({ group: { type: ['string', 'null'] }, ...selfServiceSettings }),
  { refuse: refuse({ group: KEY_REFUSALS.group!, ...KEY_SETTING_REFUSALS }, KEY_NAMES, OWN_ACCOUNT), required: true },
);

export const selfServiceUpdateBody = jsonRequestBody<SelfServiceKeyFields>(object(selfServiceSettings), {
  refuse: refuse(KEY_SETTING_REFUSALS, CHANGE_NAMES),
});

export const rotateBody = jsonRequestBody<{ grace_seconds: number }>(
  object({ grace_seconds: { type: 'integer', minimum: 0, maximum: MAX_GRACE_SECONDS } }, ['grace_seconds']),
  { refuse: refuse(ROTATE_REFUSALS, ['grace_seconds']), required: true },
);
