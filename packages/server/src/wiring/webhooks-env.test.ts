import { readEnv } from '../env.schema';
import { webhookEnvOf } from './webhooks-env';

const webhookEnvFromProcess = (e: NodeJS.ProcessEnv) => webhookEnvOf(readEnv(e), e);

describe('alert settings from the environment', () => {
  it('defaults to 80 and 100 %, 72 hours and a sweep a minute', () => {
    expect(webhookEnvFromProcess({}).alerts).toEqual({ budgetThresholds: [80, 100], expiryLeadMs: 72 * 3_600_000, intervalMs: 60_000 });
  });

  it('reads BUDGET_ALERT_THRESHOLDS (none: off), KEY_EXPIRY_ALERT_HOURS (0: off) and ALERT_SWEEP_INTERVAL_MS', () => {
    const e = webhookEnvFromProcess({ BUDGET_ALERT_THRESHOLDS: '90,50', KEY_EXPIRY_ALERT_HOURS: '24', ALERT_SWEEP_INTERVAL_MS: '5000' });
    expect(e.alerts).toEqual({ budgetThresholds: [50, 90], expiryLeadMs: 24 * 3_600_000, intervalMs: 5000 });
    expect(webhookEnvFromProcess({ BUDGET_ALERT_THRESHOLDS: 'none', KEY_EXPIRY_ALERT_HOURS: '0' }).alerts).toMatchObject({
      budgetThresholds: [],
      expiryLeadMs: 0,
    });
  });

  it('stops start-up naming the variable when a value is not one', () => {
    expect(() => webhookEnvFromProcess({ BUDGET_ALERT_THRESHOLDS: '80%' })).toThrow(/BUDGET_ALERT_THRESHOLDS/);
    expect(() => webhookEnvFromProcess({ KEY_EXPIRY_ALERT_HOURS: '-1' })).toThrow(/KEY_EXPIRY_ALERT_HOURS/);
    expect(() => webhookEnvFromProcess({ ALERT_SWEEP_INTERVAL_MS: '0' })).toThrow(/ALERT_SWEEP_INTERVAL_MS/);
  });
});
