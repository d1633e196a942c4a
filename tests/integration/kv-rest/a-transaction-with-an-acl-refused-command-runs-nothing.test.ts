// Finding 12: on the memory engine, an ACL user allowed only `~tx-own:*` sent a /multi-exec whose
// second command touched another key: the first write happened and the second answered NOPERM. Redis
// refuses such a command while queueing it and EXEC then runs nothing (EXECABORT); both engines
// must answer alike.
import type { KvRestServer } from '../../../mock';
import { call, describeEachEngine, postJson, startServer } from '../../support/kv-servers';

describeEachEngine('a transaction with a command ACL refuses runs nothing', (engine) => {
  let server: KvRestServer;
  let token: string;
  beforeAll(async () => {
    server = await startServer(engine);
    await postJson(server, '/', ['ACL', 'SETUSER', 'tx-user', 'on', '>pw', '~tx-own:*', '+@all']);
    token = ((await postJson(server, '/', ['ACL', 'RESTTOKEN', 'tx-user', 'pw'])).json as { result: string }).result;
  });
  afterAll(async () => {
    await postJson(server, '/', ['ACL', 'DELUSER', 'tx-user']);
    await server.close();
  });

  it('answers EXECABORT for /multi-exec [SET tx-own:1, SET tx-other] and writes neither key', async () => {
    const response = await postJson(server, '/multi-exec', [['SET', 'tx-own:1', 'x'], ['SET', 'tx-other', 'y']], { token });
    expect({ status: response.status, body: response.json }).toEqual({
      status: 200,
      body: [
        { error: 'EXECABORT Transaction discarded because of previous errors.' },
        { error: 'NOPERM this user has no permissions to access one of the keys used as arguments' },
      ],
    });
    expect([(await call(server, '/get/tx-own:1')).json, (await call(server, '/get/tx-other')).json]).toEqual([{ result: null }, { result: null }]);
  });

  it('runs a transaction of allowed commands whole', async () => {
    const response = await postJson(server, '/multi-exec', [['SET', 'tx-own:2', 'x'], ['GET', 'tx-own:2']], { token });
    expect({ status: response.status, body: response.json }).toEqual({ status: 200, body: [{ result: 'OK' }, { result: 'x' }] });
  });
});
