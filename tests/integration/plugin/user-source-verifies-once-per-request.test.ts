// `identifierSource: 'user'` outside Strapi's e2e: the verifier runs once per request however many
// `user` strategies match, a verifier that throws leaves the caller limited by IP, a users-permissions
// JWT is verified by that plugin's own jwt service, and a config with `user` but no verifier is refused.
import supertest from 'supertest';
import type { Context } from 'koa';
import { createRateLimitMiddleware } from '../../../server/src';
import type { CallerVerifier } from '../../../server/src/http/verified-caller';
import { strapiCallerVerifier, VERDICT_TTL_MS } from '../../../server/src/strapi/verify-caller';
import { startKoaApp } from '../../fixtures/koa-app';
import { type KvRestServer, startKvRestServer, statuses, strategy } from './support';

describe('identifierSource user', () => {
  let kv: KvRestServer;
  beforeAll(async () => {
    kv = await startKvRestServer();
  });
  afterAll(() => kv.close());

  let prefixCounter = 0;
  function appWith(verifyCaller: CallerVerifier) {
    const limiter = createRateLimitMiddleware(
      {
        url: kv.url,
        token: kv.token,
        prefix: `user-${++prefixCounter}`,
        strategy: [strategy({ identifierSource: 'user' }, { tokens: 2, window: '1h' }), strategy({ path: '*', identifierSource: 'user' }, { algorithm: 'token-bucket', tokens: 10, window: '1h' })],
      },
      { verifyCaller, logger: { info: () => undefined, warn: () => undefined } },
    );
    const app = startKoaApp([limiter], (ctx) => void (ctx.body = { ok: true }), { proxy: true });
    return { request: supertest(app.server), close: () => (app.close(), limiter.close()) };
  }

  it('verifies once per request for two matching user strategies, and limits the principal across IPs', async () => {
    let calls = 0;
    const app = appWith(async (ctx) => {
      calls += 1;
      return ctx.get('authorization') === 'Bearer alice' ? { kind: 'user', id: '7' } : undefined;
    });
    try {
      const as = (ip: string) => () => app.request.get('/limited').set('authorization', 'Bearer alice').set('x-forwarded-for', ip);
      expect([...(await statuses(as('10.0.0.1'), 1)), ...(await statuses(as('10.0.0.2'), 2))]).toEqual([200, 200, 429]);
      expect(calls).toBe(3);
    } finally {
      app.close();
    }
  });

  it('limits by IP when the verifier fails', async () => {
    const app = appWith(async () => {
      throw new Error('database down');
    });
    try {
      const from = (ip: string) => () => app.request.get('/limited').set('x-forwarded-for', ip);
      expect([...(await statuses(from('10.0.0.3'), 3)), ...(await statuses(from('10.0.0.4'), 1))]).toEqual([200, 200, 429, 200]);
    } finally {
      app.close();
    }
  });

  it('refuses a user strategy without a verifier, naming the field', () => {
    expect(() => createRateLimitMiddleware({ url: kv.url, token: kv.token, strategy: [strategy({ identifierSource: 'user' })] })).toThrow(
      expect.objectContaining({
        code: 'ERR_RATELIMIT_CONFIG',
        message: expect.stringContaining('strategy[0].identifierSource: "user" needs a verifier of users and API tokens'),
      }),
    );
  });
});

/** Credentials shaped as Strapi's (strapi/credential-shape.ts): an API token is 256 hex characters, a JWT starts `eyJ`. */
const apiToken = (fill: string) => fill.repeat(256);
const GOOD_JWT = 'eyJhbGciOiJIUzI1NiJ9.eyJpZCI6NDJ9.good';
const FORGED_JWT = 'eyJhbGciOiJIUzI1NiJ9.eyJpZCI6NDJ9.forged';
const IP = '203.0.113.1';

describe('Strapi caller verifier', () => {
  const request = (authorization?: string) => ({ request: { headers: authorization ? { authorization } : {} } }) as unknown as Context;
  const strapi = {
    plugin: (name: string) =>
      name === 'users-permissions'
        ? { service: () => ({ verify: async (token: string) => (token === GOOD_JWT ? { id: 42 } : Promise.reject(new Error('Invalid token.'))) }) }
        : undefined,
    service: () => ({ hash: (key: string) => `hashed-${key}`, getByAccessKey: async (hash: string) => (hash === `hashed-${apiToken('a')}` ? { id: 9, kind: 'content-api', expiresAt: null } : null) }),
  };
  const verify = strapiCallerVerifier(strapi);

  it('names a users-permissions JWT that its jwt service verifies user=<id>, and an API token token=<id>', async () => {
    expect(await verify(request(`Bearer ${GOOD_JWT}`), IP)).toEqual({ kind: 'user', id: '42' });
    expect(await verify(request(`bearer ${apiToken('a')}`), IP)).toEqual({ kind: 'token', id: '9' });
  });

  it('verifies nothing for a forged JWT, an unknown token, another scheme or no header', async () => {
    expect(await Promise.all([verify(request(`Bearer ${FORGED_JWT}`), IP), verify(request(`Bearer ${apiToken('b')}`), IP), verify(request(`Basic ${apiToken('a')}`), IP), verify(request(), IP)])).toEqual([undefined, undefined, undefined, undefined]);
  });

  it('verifies no JWT when users-permissions is not installed', async () => {
    expect(await strapiCallerVerifier({ plugin: () => undefined })(request(`Bearer ${GOOD_JWT}`), IP)).toBeUndefined();
  });
});

describe('the Strapi verifier under a flood of one credential', () => {
  const request = (authorization: string) => ({ request: { headers: { authorization } } }) as unknown as Context;

  it('review: costs one verification per credential and period, bogus or valid, not one database read per request, and looks its services up once', async () => {
    const calls = { lookups: 0, verifies: 0, services: 0 };
    const verify = strapiCallerVerifier({
      plugin: () => {
        calls.services++;
        return { service: () => ({ verify: async () => (calls.verifies++, { id: 7 }) }) };
      },
      service: () => {
        calls.services++;
        return { hash: (key: string) => key, getByAccessKey: async () => (calls.lookups++, null) };
      },
    });
    const flood = (authorization: string) => Promise.all(Array.from({ length: 50 }, () => verify(request(authorization), IP)));
    expect(new Set(await flood(`Bearer ${apiToken('c')}`))).toEqual(new Set([undefined]));
    expect(new Set((await flood(`Bearer ${GOOD_JWT}`)).map((caller) => caller?.id))).toEqual(new Set(['7']));
    expect(calls).toEqual({ lookups: 1, verifies: 1, services: 2 });
    const later = Date.now() + VERDICT_TTL_MS + 1;
    jest.spyOn(Date, 'now').mockReturnValue(later);
    try {
      await flood(`Bearer ${apiToken('c')}`);
      expect(calls).toEqual({ lookups: 2, verifies: 1, services: 2 });
    } finally {
      jest.restoreAllMocks();
    }
  });
});
