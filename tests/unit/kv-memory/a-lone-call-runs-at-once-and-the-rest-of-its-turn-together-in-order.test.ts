// With runAtEndOfTurn (as the REST server starts it), the memory engine runs the first call of an
// event-loop turn at once and the calls that follow it in the same turn together at the turn's end,
// in the order they came, each still atomic; a call still waiting while the engine closes is
// refused, as any call after close(). Issue 36 (the key-value server's cost per lone request): every
// call waited for the end of its turn (a setImmediate, a promise and an await), which a lone request,
// one per turn at moderate load, paid for a batch of one.
import { createMemoryEngine } from '../../../mock/kv-rest/memory';
import { CLIENT } from './memory-engine-harness';
import { plain } from '../../fixtures/plain-replies';
import { executeAsSent } from '../../support/engine-commands';
import type { Reply } from '../../../mock/kv-rest/reply';

const options = { transaction: false, caller: CLIENT };

/** Enough microtask hops for a call that does not wait to settle; none ends the turn. */
async function hops(): Promise<void> {
  for (let hop = 0; hop < 20; hop++) await Promise.resolve();
}

describe('memory engine with runAtEndOfTurn', () => {
  it('runs the first call of a turn at once and the calls after it together at its end, in the order they came', async () => {
    const engine = createMemoryEngine({ runAtEndOfTurn: true });
    try {
      const settled: string[] = [];
      const call = (name: string, commands: string[][], transaction = false) =>
        executeAsSent(engine, commands, { transaction, caller: CLIENT }).then((replies) => {
          settled.push(name);
          return replies.map(plain);
        });
      const calls = Promise.all([call('first', [['INCR', 'n'], ['INCR', 'n']]), call('second', [['INCR', 'n']], true), call('third', [['INCR', 'n'], ['INCR', 'n']])]);
      calls.catch(() => undefined); // Awaited below; a failed expectation before must not leave it unhandled.
      await hops();
      expect(settled).toEqual(['first']);
      expect(await calls).toEqual([[1, 2], [3], [4, 5]]);
      expect(settled).toEqual(['first', 'second', 'third']);
      // The next turn's first call runs at once again.
      await new Promise((resolve) => setImmediate(resolve));
      const next = call('next', [['INCR', 'n']]);
      await hops();
      expect(settled).toEqual(['first', 'second', 'third', 'next']);
      expect(await next).toEqual([6]);
    } finally {
      await engine.close();
    }
  });

  it('refuses a call still waiting for the end of the turn when the engine closes', async () => {
    const engine = createMemoryEngine({ runAtEndOfTurn: true });
    const outcomes = Promise.allSettled([executeAsSent(engine, [['PING']], options), executeAsSent(engine, [['PING']], options)]);
    await engine.close();
    const outcome = (settled: PromiseSettledResult<Reply[]>) => (settled.status === 'fulfilled' ? settled.value.map(plain) : (settled.reason as Error).message);
    expect((await outcomes).map(outcome)).toEqual([['PONG'], 'The memory engine is closed']);
  });
});
