// With runAtEndOfTurn (as the REST server starts it), the memory engine runs the calls of one
// event-loop turn together at its end, in the order they came, each still atomic; a call made
// while it is closing is refused, as any call after close().
import { createMemoryEngine } from '../../../mock/kv-rest/memory';
import { CLIENT } from './memory-engine-harness';
import { plain } from '../../fixtures/plain-replies';
import { executeAsSent } from '../../support/engine-commands';

const options = { transaction: false, caller: CLIENT };

describe('memory engine with runAtEndOfTurn', () => {
  it('runs the calls of one turn at its end, in the order they came', async () => {
    const engine = createMemoryEngine({ runAtEndOfTurn: true });
    try {
      let settled = false;
      const first = executeAsSent(engine, [['INCR', 'n'], ['INCR', 'n']], options).then((replies) => {
        settled = true;
        return replies;
      });
      const second = executeAsSent(engine, [['INCR', 'n']], { transaction: true, caller: CLIENT });
      for (let hop = 0; hop < 5; hop++) await Promise.resolve();
      expect(settled).toBe(false);
      expect((await first).map(plain)).toEqual([1, 2]);
      expect((await second).map(plain)).toEqual([3]);
    } finally {
      await engine.close();
    }
  });

  it('refuses a call still waiting for the end of the turn when the engine closes', async () => {
    const engine = createMemoryEngine({ runAtEndOfTurn: true });
    const pending = executeAsSent(engine, [['PING']], options);
    await engine.close();
    await expect(pending).rejects.toThrow('The memory engine is closed');
  });
});
