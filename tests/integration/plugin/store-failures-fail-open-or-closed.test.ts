// When the store is down (connection refused) or hangs (accepts, never answers), each request is
// decided within the timeout: let through (fail open, one warning per outage) or 503 (fail closed).
// After a failure the store is not called for a while (server/src/store/store-circuit.ts): the
// tests that wait for it to be used again move Date past that interval instead of sleeping.
import { CIRCUIT_LONGEST_INTERVAL_MS } from '../../../server/src/store/store-circuit';
import { closedPortUrl } from '../../fixtures/ports';
import { fakeDateOnly } from '../../support/fake-date';
import { startStoreProxy, type StoreProxy } from './store-proxy';
import { type KvRestServer, limitedApp, startKvRestServer, statuses, strategy } from './support';

// Short enough that a hanging store cannot make these tests slow; each test's own jest timeout
// (a few seconds) is what fails if a request waits on the store instead of on the timeout.
const TIMEOUT_MS = 150;
const WITHIN = 5000;

describe('store failures', () => {
  let kv: KvRestServer;
  let store: StoreProxy;
  beforeAll(async () => {
    kv = await startKvRestServer();
  });
  beforeEach(async () => {
    store = await startStoreProxy(kv.url);
  });
  afterEach(() => store.close());
  afterAll(() => kv.close());

  let prefixCounter = 0;
  const config = (url: string, failureMode: 'open' | 'closed') => ({ url, token: kv.token, prefix: `down${++prefixCounter}`, timeout: TIMEOUT_MS, failureMode, strategy: [strategy({}, { tokens: 1 })] });

  it(
    'fails open on a closed port, warning once for the whole outage',
    async () => {
      const app = limitedApp(config(await closedPortUrl(), 'open'));
      try {
        expect(await statuses(() => app.request.get('/limited'), 3)).toEqual([200, 200, 200]);
        expect(app.logs.warn).toHaveLength(1);
        expect(app.logs.warn[0]).toMatch(/^\[ratelimit\] the key-value store failed \(.+\); letting requests through unchecked until it answers again \(1 let through unchecked since start\)$/);
        expect(app.limiter.failOpen()).toEqual({ admitted: 3, outage: true });
      } finally {
        app.close();
      }
    },
    WITHIN,
  );

  it(
    'fails closed on a closed port with a 503 in Strapi’s error shape',
    async () => {
      const app = limitedApp(config(await closedPortUrl(), 'closed'));
      try {
        const refused = await app.request.get('/limited');
        expect(refused.status).toBe(503);
        expect(refused.body).toEqual({ data: null, error: { status: 503, name: 'ServiceUnavailableError', message: 'Rate limiting is unavailable, please retry later', details: {} } });
        expect(app.logs.warn).toEqual([expect.stringContaining('answering 503 until it answers again (0 let through unchecked since start)')]);
        expect(app.limiter.failOpen()).toEqual({ admitted: 0, outage: true });
      } finally {
        app.close();
      }
    },
    WITHIN,
  );

  it.each(['open', 'closed'] as const)(
    'decides within the timeout when the store accepts but never answers (fail %s)',
    async (failureMode) => {
      store.mode = 'hang';
      const app = limitedApp(config(store.url, failureMode));
      try {
        const expected = failureMode === 'open' ? 200 : 503;
        expect(await statuses(() => app.request.get('/limited'), 2)).toEqual([expected, expected]);
        expect(store.count()).toBeGreaterThanOrEqual(1);
        expect(app.logs.warn).toEqual([expect.stringContaining(`no answer from the key-value store within ${TIMEOUT_MS} ms`)]);
      } finally {
        app.close();
      }
    },
    WITHIN,
  );

  it(
    'issue 16 item 8: a hanging store costs one timeout per outage, not one per request',
    async () => {
      store.mode = 'hang';
      const app = limitedApp(config(store.url, 'open'));
      try {
        expect(await statuses(() => app.request.get('/limited'), 20)).toEqual(Array(20).fill(200));
        // One call, plus the probes of a machine slow enough to let intervals pass (100, 200, 400 ms...).
        expect(store.count()).toBeLessThanOrEqual(4);
      } finally {
        app.close();
      }
    },
    WITHIN,
  );

  it(
    'applies limits again when the store is back, and warns again on the next outage',
    async () => {
      const pastTheCircuit = () => jest.setSystemTime(Date.now() + CIRCUIT_LONGEST_INTERVAL_MS);
      // Only Date: the store's deadlines and the HTTP servers keep real timers.
      fakeDateOnly();
      const app = limitedApp({ ...config(store.url, 'open'), strategy: [strategy({ identifierSource: 'header.x-user' }, { tokens: 1 })] });
      const as = (user: string) => () => app.request.get('/limited').set('x-user', user);
      try {
        store.mode = 'reset';
        expect(await statuses(as('a'), 2)).toEqual([200, 200]);
        store.mode = 'forward';
        pastTheCircuit();
        expect(await statuses(as('a'), 2)).toEqual([200, 429]);
        expect(app.logs.info).toEqual([expect.stringMatching(/^\[ratelimit\] the key-value store answers again after \d+ s; limits apply\. 2 requests were let through unchecked during the outage \(2 since start\)$/)]);
        expect(app.limiter.failOpen()).toEqual({ admitted: 2, outage: false });
        store.mode = 'hang';
        // The blocked caller is answered from memory; a new caller needs the store, which hangs.
        expect(await statuses(as('a'), 1)).toEqual([429]);
        expect(await statuses(as('b'), 1)).toEqual([200]);
        expect(app.logs.warn).toHaveLength(2);
        expect(app.logs.warn[1]).toMatch(/\(3 let through unchecked since start\)$/);
      } finally {
        jest.useRealTimers();
        app.close();
      }
    },
    WITHIN,
  );
});
