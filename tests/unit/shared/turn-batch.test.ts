// The one turn batching of the store requester and both engines: what arrives during one turn of the
// event loop is handed over together at its end, and the next turn starts a new batch.
import { TurnBatch } from '../../../shared/turn-batch';

const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('TurnBatch', () => {
  it('hands the items of one turn to flush once, at its end, in arrival order', async () => {
    const flushed: number[][] = [];
    const batch = new TurnBatch<number>((items) => flushed.push(items));
    batch.add(1);
    await Promise.resolve();
    batch.add(2);
    batch.add(3);
    expect({ flushed, waiting: batch.waiting }).toEqual({ flushed: [], waiting: true });
    await nextTurn();
    expect({ flushed, waiting: batch.waiting }).toEqual({ flushed: [[1, 2, 3]], waiting: false });
  });

  it('starts a new batch with the first item of a later turn, including one added while flushing', async () => {
    const flushed: string[][] = [];
    const batch = new TurnBatch<string>((items) => {
      flushed.push(items);
      if (items[0] === 'a') batch.add('added while flushing');
    });
    batch.add('a');
    await nextTurn();
    batch.add('b');
    await nextTurn();
    expect(flushed).toEqual([['a'], ['added while flushing', 'b']]);
  });
});
