// Which requests a strategy counts and as whom: methods vs ALL, `:id` and wildcard routes, header
// identifiers (present, absent -> IP, name case), the allow-list, and keys in the documented format.
import { storeForSuite, limitedApp, statuses, strategy } from './support';

describe('strategies', () => {
  const store = storeForSuite();

  let prefixCounter = 0;
  const config = (strategies: unknown[], extra: Record<string, unknown> = {}) => ({ url: store.kv.url, token: store.kv.token, prefix: `p${++prefixCounter}`, strategy: strategies, ...extra });

  it('counts only the listed methods, and HEAD as the GET it is', async () => {
    const app = limitedApp(config([strategy({ methods: ['GET'] }, { tokens: 2 })]));
    try {
      expect(await statuses(() => app.request.post('/limited'), 3)).toEqual([200, 200, 200]);
      expect(await statuses(() => app.request.head('/limited'), 1)).toEqual([200]);
      expect(await statuses(() => app.request.get('/limited'), 2)).toEqual([200, 429]);
    } finally {
      app.close();
    }
  });

  it('shares one ALL limit across methods, keyed with ALL', async () => {
    const settings = config([strategy({ methods: ['ALL'] }, { tokens: 2 })]);
    const app = limitedApp(settings);
    try {
      expect([(await app.request.get('/limited')).status, (await app.request.delete('/limited')).status, (await app.request.put('/limited')).status]).toEqual([200, 200, 429]);
      const keys = await store.redis.keys(`${settings.prefix}:*`);
      expect(keys.length).toBeGreaterThan(0);
      expect(keys.every((key) => key.startsWith(`${settings.prefix}:ALL:/limited:`))).toBe(true);
    } finally {
      app.close();
    }
  });

  it('gives each :id its own route match but one shared limit per caller, and * covers sub-paths', async () => {
    const app = limitedApp(config([strategy({ path: '/items/:id' }, { tokens: 2 }), strategy({ path: '/files/*' }, { tokens: 1 })]));
    try {
      expect(await statuses(() => app.request.get('/items/1'), 1)).toEqual([200]);
      expect(await statuses(() => app.request.get('/items/2'), 2)).toEqual([200, 429]);
      expect(await statuses(() => app.request.get('/items/1/extra'), 2)).toEqual([200, 200]);
      expect(await statuses(() => app.request.get('/files/a/b/c.txt'), 2)).toEqual([200, 429]);
    } finally {
      app.close();
    }
  });

  it('limits by a header value, falls back to the IP without it, and reads the header name in any case', async () => {
    const app = limitedApp(config([strategy({ identifierSource: 'header.X-Api-Key' }, { tokens: 1 })]));
    try {
      expect(await statuses(() => app.request.get('/limited').set('x-api-key', 'k1'), 2)).toEqual([200, 429]);
      expect(await statuses(() => app.request.get('/limited').set('X-API-KEY', 'k2'), 1)).toEqual([200]);
      expect(await statuses(() => app.request.get('/limited'), 2)).toEqual([200, 429]);
      expect(await statuses(() => app.request.get('/limited').set('x-api-key', 'k3'), 1)).toEqual([200]);
    } finally {
      app.close();
    }
  });

  it('keeps a hostile header value inside its own key', async () => {
    const settings = config([strategy({ identifierSource: 'header.x-user' }, { tokens: 1 })]);
    const app = limitedApp(settings);
    try {
      expect(await statuses(() => app.request.get('/limited').set('x-user', 'victim'), 1)).toEqual([200]);
      expect(await statuses(() => app.request.get('/limited').set('x-user', '*'), 1)).toEqual([200]);
      expect(await statuses(() => app.request.get('/limited').set('x-user', 'vict?m'), 1)).toEqual([200]);
      const keys = (await store.redis.keys(`${settings.prefix}:*`)).sort();
      expect(keys.map((key) => key.split(':')[3])).toEqual(expect.arrayContaining(['%2A', 'vict%3Fm', 'victim']));
      expect(keys.every((key) => /^p\d+:GET:\/limited:[^:*?[\]]+:fixed-window\.1h:\d+$/.test(key))).toBe(true);
    } finally {
      app.close();
    }
  });

  it('never limits an allow-listed header value', async () => {
    const app = limitedApp(config([strategy({ identifierSource: 'header.x-api-key' }, { tokens: 1 })], { allowList: ['header.X-Api-Key:trusted'] }));
    try {
      expect(await statuses(() => app.request.get('/limited').set('x-api-key', 'trusted'), 3)).toEqual([200, 200, 200]);
      expect(await statuses(() => app.request.get('/limited').set('x-api-key', 'other'), 2)).toEqual([200, 429]);
    } finally {
      app.close();
    }
  });

  it('matches the allow-list on the address as keyed, so 203.0.113.9 also covers ::ffff:203.0.113.9', async () => {
    const app = limitedApp(config([strategy({}, { tokens: 1 })], { allowList: ['203.0.113.9'] }), { proxy: true });
    try {
      const mapped = () => app.request.get('/limited').set('x-forwarded-for', '::ffff:203.0.113.9');
      expect((await mapped()).body.ip).toBe('::ffff:203.0.113.9');
      expect(await statuses(mapped, 2)).toEqual([200, 200]);
      expect(await statuses(() => app.request.get('/limited').set('x-forwarded-for', '203.0.113.10'), 2)).toEqual([200, 429]);
    } finally {
      app.close();
    }
  });

  it('limits IPv6 callers per /64: two addresses of one /64 share a limit, another /64 has its own', async () => {
    const settings = config([strategy({}, { tokens: 1 })]);
    const app = limitedApp(settings, { proxy: true });
    const from = (address: string) => () => app.request.get('/limited').set('x-forwarded-for', address);
    try {
      expect(await statuses(from('2001:db8:1:2::1'), 1)).toEqual([200]);
      expect(await statuses(from('2001:db8:1:2:ffff::9'), 1)).toEqual([429]);
      expect(await statuses(from('2001:db8:1:3::1'), 1)).toEqual([200]);
      const keys = (await store.redis.keys(`${settings.prefix}:*`)).sort();
      expect(keys.map((key) => key.split(':').slice(3, 4)[0])).toEqual(['2001.db8.1.2.0.0.0.0/64', '2001.db8.1.3.0.0.0.0/64']);
    } finally {
      app.close();
    }
  });

  it('lets everything through when the config says enabled: false', async () => {
    const app = limitedApp({ ...config([strategy({}, { tokens: 1 })]), enabled: false });
    try {
      expect(await statuses(() => app.request.get('/limited'), 3)).toEqual([200, 200, 200]);
    } finally {
      app.close();
    }
  });
});
