// Test support for requests charged more than 1 token (a GraphQL strategy counting aliased logins) on
// every store the plugin counts in: the embedded one, the key-value REST server on its memory engine
// and on its redis engine, a redis-server by redis://, and a 3-master Redis Cluster (the last three
// with the run's redis-server and redis-cli; skipped without them unless REQUIRE_REDIS=1). The
// middleware is called directly on real Koa contexts, so requests sent "together" reach the store in
// one turn of the event loop, in order, as concurrent requests can: no HTTP timing decides the test.
import { randomUUID } from 'node:crypto';
import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import Koa, { type Context } from 'koa';
import { startKvRestServer, type KvRestServer } from '../../../mock';
import { createRateLimitMiddleware, type RateLimitConfigInput } from '../../../server/src';
import { fakeDateOnly } from '../../support/fake-date';
import { describeWithRedisCluster, describeWithRedisOfTheRun } from '../../support/installed-program';
import { useRedisCluster } from '../../support/redis-topologies';
import { schema } from '../../unit/graphql/support';

type Limiter = Extract<NonNullable<RateLimitConfigInput['strategy']>[number], { graphql: unknown }>['limiter'];

/** Where the counters live: what the config's `url` and `token` say (none: the embedded store). */
export type StoreUnderTest = () => { readonly url?: string; readonly token?: string };

/** Runs `suite` once per store (see the header). */
export function describeOnEveryStore(title: string, suite: (store: StoreUnderTest) => void): void {
  describe(`${title} [embedded store]`, () => suite(() => ({})));
  describe(`${title} [key-value REST server, memory engine]`, () => suite(restServer(() => ({}))));
  describeWithRedisOfTheRun(`${title} [key-value REST server, redis engine]`, () => suite(restServer(() => ({ engine: 'redis', redisUrl: process.env.REDIS_URL! }))));
  describeWithRedisOfTheRun(`${title} [redis://]`, () => suite(() => ({ url: process.env.REDIS_URL! })));
  describeWithRedisCluster(`${title} [Redis Cluster]`, () => {
    const cluster = useRedisCluster();
    suite(() => ({ url: cluster().url }));
  });
}

function restServer(options: () => Parameters<typeof startKvRestServer>[0]): StoreUnderTest {
  let server: KvRestServer | undefined;
  beforeAll(async () => {
    server = await startKvRestServer(options());
  });
  afterAll(() => server?.close());
  return () => ({ url: server!.url, token: server!.token });
}

/** What the caller saw: the status, and the `remaining` of its RateLimit header. */
export type Seen = readonly [status: number, remaining: number | undefined];

export interface LoginCaller {
  /** Sends one request per entry of `logins` (that many aliased logins each), all in the same turn, and answers what each saw. */
  together(...logins: number[]): Promise<Seen[]>;
  /** Sends requests of `logins` aliased logins one after another. */
  oneByOne(...logins: number[]): Promise<Seen[]>;
  close(): void;
}

/**
 * Names this module's callers in the stores the run shares (its redis-server, its Cluster): jest
 * loads the module afresh for each test file, in a worker that may have run another file using it
 * with the same pid, at the same faked hour. With `<pid>-<n>` alone, a file's first sliding-window
 * caller found the counts another file's had left (a 429 where 200 was due).
 */
const MODULE_RUN = randomUUID().slice(0, 8);
let apps = 0;
const koa = new Koa();

/** A POST /graphql of `count` aliased logins from 192.0.2.1, its body as a body parser before the plugin leaves it. */
function loginRequest(count: number): Context {
  const request = new IncomingMessage(new Socket());
  Object.assign(request, { method: 'POST', url: '/graphql', headers: { 'content-type': 'application/json' } });
  const ctx = koa.createContext(request, new ServerResponse(request));
  ctx.request.ip = '192.0.2.1';
  ctx.request.body = { query: `mutation { ${Array.from({ length: count }, (_, index) => `a${index}: login(identifier: "x") { jwt }`).join(' ')} }` };
  return ctx;
}

const remainingOf = (ctx: Context): number | undefined => {
  const match = /remaining=(\d+)/.exec(ctx.response.get('RateLimit'));
  return match ? Number(match[1]) : undefined;
};

/** The start of an hour: a window of an hour begins, and the one before holds nothing. */
export const HOUR_START = 1_800_000_000_000 - (1_800_000_000_000 % 3_600_000);

/** For each test: Date stands at HOUR_START until the test moves it; the callers it made are closed after it. */
export function loginCallersOfEachTest(store: StoreUnderTest): (limiter: Limiter) => LoginCaller {
  const callers: LoginCaller[] = [];
  beforeEach(() => fakeDateOnly(HOUR_START));
  afterEach(() => {
    for (const caller of callers.splice(0)) caller.close();
    jest.useRealTimers();
  });
  return (limiter) => {
    const caller = loginCaller(store, limiter);
    callers.push(caller);
    return caller;
  };
}

/** A caller of a `login` strategy limited by `limiter`, on `store`, under a key prefix of its own. */
function loginCaller(store: StoreUnderTest, limiter: Limiter): LoginCaller {
  const middleware = createRateLimitMiddleware({ ...store(), prefix: `charges-${MODULE_RUN}-${++apps}`, strategy: [{ graphql: { mutation: ['login'] }, identifierSource: 'ip', limiter }] }, { graphql: { schema: () => schema } });
  const send = async (count: number): Promise<Seen> => {
    const ctx = loginRequest(count);
    await middleware(ctx, async () => void (ctx.body = { data: {} }));
    return [ctx.status, remainingOf(ctx)];
  };
  return {
    together: (...logins) => Promise.all(logins.map(send)),
    async oneByOne(...logins) {
      const seen: Seen[] = [];
      for (const count of logins) seen.push(await send(count));
      return seen;
    },
    close: () => middleware.close(),
  };
}
