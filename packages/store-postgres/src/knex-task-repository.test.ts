import { describeTaskRepositoryConformance } from '@gateway/testkit';
import { KnexTaskRepository } from './knex-task-repository';
import { describeOnTestDatabases } from '../test/test-databases';

// PGlite in memory always; the real Postgres of TEST_DATABASE_URL too, each in a schema of its own.
describeOnTestDatabases((target) => {
  describeTaskRepositoryConformance(target.name, async () => {
    const db = await target.open();
    const repo = new KnexTaskRepository(db.knex);
    return {
      repo,
      other: new KnexTaskRepository(db.knex),
      reset: async () => void (await db.knex('video_tasks').del()),
      done: () => db.drop(),
    };
  });
});
