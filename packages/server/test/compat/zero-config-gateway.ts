import { DEFAULT_CONFIG } from '../../src/default-config';
import { startTestGateway, type TestGateway } from '../support/test-gateway';

export const COMPAT_KEY = 'sk-compat-suite-key-0001';

/** The built-in (simulator) config as a newcomer gets it, with one known key of the demo group. */
export function startZeroConfigGateway(): Promise<TestGateway> {
  return startTestGateway({ config: { ...DEFAULT_CONFIG, keys: [{ key: COMPAT_KEY, account: 'compat', group: 'default' }] } });
}
