import { eventually } from '@gateway/testkit';
import { describeOnTestDatabases } from '../../test/test-databases';
import { videoTask } from '../../test/video-task';
import { KnexTaskRepository } from '../knex-task-repository';
import { taskChangeFeed } from '../task-change-feed';
import { down } from './034-task-insert-notify';

describeOnTestDatabases((target) => {
  describe(`migration 034: a new task is announced on ${target.name}`, () => {
    it('notifies the task change channel with the new id after commit; without the trigger nothing is sent', async () => {
      const db = await target.open();
      const feed = taskChangeFeed(db);
      try {
        await feed.start();
        const tasks = new KnexTaskRepository(db.knex);
        const seen: string[] = [];
        for (const id of ['t-new', 't-unannounced', 't-marker']) feed.subscribe(id, () => seen.push(id));
        await tasks.create(videoTask('t-new'));
        await eventually(() => expect(seen).toEqual(['t-new']));

        await down(db.knex);
        await tasks.create(videoTask('t-unannounced'));
        // notices arrive in commit order: once the marker's is in, the unannounced task's would have been too
        await db.knex.raw("select pg_notify('gateway_task_changes', 't-marker')");
        await eventually(() => expect(seen).toEqual(['t-new', 't-marker']));
      } finally {
        await feed.close();
        await db.drop();
      }
    });
  });
});
