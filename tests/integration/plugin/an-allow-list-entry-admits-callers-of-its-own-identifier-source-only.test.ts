// Finding 4 of issue 12: an allow-list entry applies to its own identifier source only. An IP entry
// admits callers identified by IP (a header strategy's caller without the header included), a
// `header.<NAME>:<value>` entry admits that header's callers with that value, and neither crosses
// over. And a client IP a proxy wrote with its port is one caller whatever the port.
import { type KvRestServer, limitedApp, startKvRestServer, statuses, strategy } from './support';

describe('allow-list and client addresses', () => {
  let kv: KvRestServer;
  beforeAll(async () => {
    kv = await startKvRestServer();
  });
  afterAll(() => kv.close());

  let prefixCounter = 0;
  const config = (strategies: unknown[], extra: Record<string, unknown> = {}) => ({ url: kv.url, token: kv.token, prefix: `f4-${++prefixCounter}`, strategy: strategies, ...extra });

  it('finding 4: an allow-listed IP sent as the x-api-key value is limited like any other key', async () => {
    const app = limitedApp(config([strategy({ identifierSource: 'header.x-api-key' }, { tokens: 1 })], { allowList: ['10.0.0.1'] }));
    try {
      expect(await statuses(() => app.request.get('/limited').set('x-api-key', '10.0.0.1'), 2)).toEqual([200, 429]);
    } finally {
      app.close();
    }
  });

  it('finding 4: a header entry admits that header\'s value, not the same text as another header or as an IP', async () => {
    const app = limitedApp(
      config(
        [
          strategy({ identifierSource: 'header.x-api-key' }, { tokens: 1 }),
          strategy({ path: '/other', identifierSource: 'header.x-tenant' }, { tokens: 1 }),
          strategy({ path: '/by-ip' }, { tokens: 1 }),
        ],
        { allowList: ['header.X-Api-Key:127.0.0.1'] },
      ),
    );
    try {
      expect(await statuses(() => app.request.get('/limited').set('x-api-key', '127.0.0.1'), 3)).toEqual([200, 200, 200]);
      expect(await statuses(() => app.request.get('/other').set('x-tenant', '127.0.0.1'), 2)).toEqual([200, 429]);
      // The client's own address is 127.0.0.1, but it is allow-listed only as an x-api-key value.
      expect(await statuses(() => app.request.get('/by-ip'), 2)).toEqual([200, 429]);
    } finally {
      app.close();
    }
  });

  it('an IP entry admits a header strategy\'s caller that sent no header (limited by IP), and subnets admit their addresses', async () => {
    const app = limitedApp(config([strategy({ identifierSource: 'header.x-api-key' }, { tokens: 1 })], { allowList: ['203.0.113.9', '2001:db8::/64'] }), { proxy: true });
    try {
      expect(await statuses(() => app.request.get('/limited').set('x-forwarded-for', '203.0.113.9'), 2)).toEqual([200, 200]);
      expect(await statuses(() => app.request.get('/limited').set('x-forwarded-for', '2001:db8::42'), 2)).toEqual([200, 200]);
      expect(await statuses(() => app.request.get('/limited').set('x-forwarded-for', '2001:db8:0:1::42'), 2)).toEqual([200, 429]);
    } finally {
      app.close();
    }
  });

  it('counts ip:port and [v6]:port forms of X-Forwarded-For as the address, whatever the port', async () => {
    const app = limitedApp(config([strategy({}, { tokens: 2 })], { allowList: ['198.51.100.7'] }), { proxy: true });
    const from = (address: string) => () => app.request.get('/limited').set('x-forwarded-for', address);
    try {
      expect(await statuses(from('203.0.113.9:5001'), 1)).toEqual([200]);
      expect(await statuses(from('203.0.113.9:5002'), 1)).toEqual([200]);
      expect(await statuses(from('203.0.113.9'), 1)).toEqual([429]);
      expect(await statuses(from('[2001:db8::1]:443'), 1)).toEqual([200]);
      expect(await statuses(from('[2001:db8::2]:444'), 1)).toEqual([200]);
      expect(await statuses(from('2001:db8::3'), 1)).toEqual([429]);
      expect(await statuses(from('198.51.100.7:6000'), 3)).toEqual([200, 200, 200]);
    } finally {
      app.close();
    }
  });

  it('refuses at boot an allow-list entry of no accepted form, naming the field and the header form', () => {
    expect(() => limitedApp(config([strategy()], { allowList: ['10.0.0.1', 'trusted'] }))).toThrow(
      'allowList[1]: "trusted" is not an IP address, a subnet such as 10.0.0.0/8, or header.<NAME>:<value> (a header value is written header.x-api-key:<value>)',
    );
  });
});
