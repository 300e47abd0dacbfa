import { describeWithService } from '@gateway/testkit';
import { describeCrashRecovery } from './support/crash-suite';

/** crash-recovery.test.ts on the Postgres of TEST_DATABASE_URL (a schema of its own per run). */
jest.setTimeout(240_000);

describeWithService('TEST_DATABASE_URL', 'crash recovery on Postgres', () => describeCrashRecovery(true));
