import { describeTaskRepositoryConformance } from '../task-repository.conformance';
import { InMemoryTaskRepository } from './in-memory-task-repository';

let repo = new InMemoryTaskRepository();
describeTaskRepositoryConformance('in-memory fake', async () => ({
  get repo() {
    return repo;
  },
  reset: async () => {
    repo = new InMemoryTaskRepository();
  },
  done: async () => undefined,
}));
