import { eventually } from '@gateway/testkit';
import { taskChangeFeed } from './task-change-feed';

describe('taskChangeFeed', () => {
  it('tells onAny of every notice, watched or not', async () => {
    let notify: ((id: string) => void) | undefined;
    let any = 0;
    const feed = taskChangeFeed(
      {
        listen: async (_channel, onNotify) => {
          notify = onNotify;
          return async () => undefined;
        },
      },
      { onAny: () => void any++ },
    );
    await feed.start();
    const seen: string[] = [];
    feed.subscribe('t1', () => seen.push('t1'));
    notify!('t1');
    notify!('t-new');
    expect({ any, seen }).toEqual({ any: 2, seen: ['t1'] });
    await feed.close();
  });

  it('fans notices out by task id, and listens again after a failure or a lost connection', async () => {
    let listens = 0;
    let notify: ((id: string) => void) | undefined;
    let lose: ((e: Error) => void) | undefined;
    const errors: string[] = [];
    const feed = taskChangeFeed(
      {
        listen: async (_channel, onNotify, onLost) => {
          listens++;
          if (listens === 1) throw new Error('no connection');
          notify = onNotify;
          lose = onLost;
          return async () => undefined;
        },
      },
      { retryMs: 10, onDown: (e) => errors.push(e.message) },
    );
    await feed.start();
    await eventually(() => listens === 2);
    const seen: string[] = [];
    const off = feed.subscribe('t1', () => seen.push('t1'));
    feed.subscribe('t2', () => seen.push('t2'));
    notify!('t1');
    notify!('t3');
    off();
    notify!('t1');
    notify!('t2');
    expect(seen).toEqual(['t1', 't2']);
    lose!(new Error('connection terminated'));
    await eventually(() => listens === 3);
    expect(errors).toEqual(['no connection', 'connection terminated']);
    await feed.close();
  });

  it('reports an outage once however many retries fail in it, and one line when LISTEN works again', async () => {
    let listens = 0;
    let failing = true;
    let lose: ((e: Error) => void) | undefined;
    const log: string[] = [];
    const feed = taskChangeFeed(
      {
        listen: async (_channel, _onNotify, onLost) => {
          listens++;
          if (failing) throw new Error(`connection refused ${listens}`);
          lose = onLost;
          return async () => undefined;
        },
      },
      { retryMs: 5, onDown: (e) => log.push(`down: ${e.message}`), onUp: () => log.push('up') },
    );
    await feed.start();
    await eventually(() => listens >= 20); // twenty failed attempts, one outage
    failing = false;
    await eventually(() => log.includes('up'));
    expect(log).toEqual(['down: connection refused 1', 'up']);
    // a second outage, begun by a lost session and lasting several retries, is reported once more
    failing = true;
    const before = listens;
    lose!(new Error('connection terminated'));
    await eventually(() => listens >= before + 10);
    failing = false;
    await eventually(() => log.length === 4);
    expect(log).toEqual(['down: connection refused 1', 'up', 'down: connection terminated', 'up']);
    await feed.close();
  });
});
