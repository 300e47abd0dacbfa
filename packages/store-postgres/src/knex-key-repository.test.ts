import { describeKeyRepositoryConformance } from '@gateway/testkit';
import { KnexKeyRepository } from './knex-key-repository';
import { describeOnTestDatabases } from '../test/test-databases';

describeOnTestDatabases((target) => {
  describeKeyRepositoryConformance(target.name, async () => {
    const db = await target.open();
    return { repo: new KnexKeyRepository(db.knex), done: () => db.drop() };
  });
});
