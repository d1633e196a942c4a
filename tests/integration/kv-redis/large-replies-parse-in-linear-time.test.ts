// Finding 10: the redis engine re-parsed a split reply from its start on every chunk: LRANGE of
// 100k elements took 1.3 s and 150k failed the 2 s time limit (dropping everything queued on that
// pooled connection). Each byte is now parsed once.
import { bulk } from '../../../mock/kv-rest/reply';
import { call, postJson, useRedisEngineServer } from '../../support/kv-servers';
import { describeWithRedisBinary } from '../../support/installed-program';
import { executeAsSent } from '../../support/engine-commands';

const COUNT = 250_000;

describeWithRedisBinary('large replies through the redis engine parse in linear time', () => {
  const context = useRedisEngineServer();
  beforeAll(async () => {
    for (let start = 0; start < COUNT; start += 25_000) {
      await postJson(context.server, '/', ['RPUSH', 'long', ...Array.from({ length: 25_000 }, (_, index) => `item-${start + index}`)]);
    }
  });

  it('finding 10: LRANGE of 250k elements reaches the engine whole within 1 s, and the REST API answers it whole', async () => {
    const started = Date.now();
    const [reply] = await executeAsSent(context.server.engine, [['LRANGE', 'long', '0', '-1']], { transaction: false, caller: { user: 'default', address: 'test' } });
    const elapsed = Date.now() - started;
    expect(reply.kind === 'array' ? [reply.items.length, reply.items[0], reply.items[COUNT - 1]] : reply).toEqual([COUNT, bulk('item-0'), bulk(`item-${COUNT - 1}`)]);
    expect(elapsed).toBeLessThan(1000);
    const { result } = (await call(context.server, '/lrange/long/0/-1')).json as { result: string[] };
    expect([result.length, result[0], result[COUNT - 1]]).toEqual([COUNT, 'item-0', `item-${COUNT - 1}`]);
  });
});
