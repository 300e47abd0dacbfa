import { describeKeyRepositoryConformance } from '@gateway/testkit';
import { KnexKeyRepository } from './knex-key-repository';
import { testDatabaseTargets } from './test-databases';

for (const target of testDatabaseTargets()) {
  describeKeyRepositoryConformance(target.name, async () => {
    const db = await target.open();
    return { repo: new KnexKeyRepository(db.knex), done: () => db.drop() };
  });
}
