// Issue 25 finding 11, the smaller trust gaps of the plugin and its admin API, one test each:
// the programmatic API took a strategy index the HTTP route refuses; console-written deny entries
// were listed but could not be lifted; admin-typed line separators went raw into log lines; four
// credential header names were kept raw; and the deny list's refusals on shadow-only routes were
// not what the README said (it now says a deny refuses there too, as the middleware does).
import type { Context } from 'koa';
import { denyController } from '../../../server/src/admin-api/deny-controller';
import { looksLikeCredential } from '../../../server/src/http/header-privacy';
import { limitedApp, statuses, storeForSuite, strategy, type LimitedApp } from '../../integration/plugin/support';

const store = storeForSuite();
const apps: LimitedApp[] = [];
afterEach(() => apps.splice(0).forEach((app) => app.close()));
const app = (prefix: string, config: Record<string, unknown> = {}): LimitedApp => {
  const made = limitedApp({ url: store.kv.url, token: store.kv.token, prefix, strategy: [strategy({ identifierSource: 'header.x-caller' })], ...config });
  apps.push(made);
  return made;
};

/** What the deny controller answers an admin (`user`) for `action` with `body`. */
async function asAdmin(limited: LimitedApp, action: 'list' | 'lift', body?: unknown, user: object = { id: 7, email: 'ops@example.com' }): Promise<[number | undefined, unknown]> {
  const ctx = { request: { body }, state: { user }, status: undefined, body: undefined } as unknown as Context;
  await denyController(() => limited.limiter)[action](ctx);
  return [ctx.status, (ctx.body as { data: unknown }).data];
}

describe('code, console entries and log lines leave no trust gap', () => {
  it('11a: setLiveLimit and resetCaller from code refuse a strategy index that is not an integer, and write nothing', async () => {
    const limited = app('finding-11a');
    const message = 'strategy must be the index of a configured strategy (0 to 0), not "0"';
    await expect(limited.limiter.setLiveLimit('0' as unknown as number, 5, 'ops')).rejects.toThrow(new RangeError(message));
    await expect(limited.limiter.resetCaller('0' as unknown as number, 'a')).rejects.toThrow(new RangeError(message));
    await expect(limited.limiter.setLiveLimit(0.5, 5, 'ops')).rejects.toThrow(RangeError);
    expect(await store.redis.keys('finding-11a:*')).toEqual([]);
  });

  it.each([
    ['a newline', 'Mozilla/5.0\nCrawler'],
    ['over 400 characters', `Mozilla/5.0 ${'x'.repeat(500)}`],
    ['U+0085 and U+2028', 'agent\u0085with\u2028separators'],
  ])('11b: a console-written deny entry with %s is listed and can be lifted', async (_case, member) => {
    const limited = app('finding-11b');
    await store.redis.sadd('finding-11b:denyList:all', member);
    expect(await asAdmin(limited, 'list')).toEqual([undefined, expect.objectContaining({ members: [{ member, kind: 'other' }] })]);
    expect(await asAdmin(limited, 'lift', { member })).toEqual([undefined, { member, lifted: true }]);
    expect(await store.redis.smembers('finding-11b:denyList:all')).toEqual([]);
  });

  it('11c: admin-typed U+0085 and U+2028 (a member to lift, an admin email) reach log lines escaped, on one line', async () => {
    const limited = app('finding-11c');
    await asAdmin(limited, 'lift', { member: 'fake\u0085[ratelimit] deny list: 203.0.113.9 lifted\u2028' }, { id: 7, email: 'ops\u2028@example.com' });
    expect(limited.logs.info).toEqual(['[ratelimit] deny list: fake\\u0085[ratelimit] deny list: 203.0.113.9 lifted\\u2028 lifted by ops\\u2028@example.com (it was not on the list)']);
  });

  it.each(['x-session-id', 'x-password', 'x-jwt', 'x-signature'])('11d: the credential-header heuristic hashes %s', (header) => {
    expect(looksLikeCredential(header)).toBe(true);
  });

  it('11e: a denied caller gets 403 on a route only shadow strategies cover, where its limit never refuses (README, Shadow mode and Deny list)', async () => {
    const limited = app('finding-11e', { mode: 'shadow', strategy: [strategy({ identifierSource: 'header.x-caller' }, { tokens: 1 })] });
    const ask = (caller: string) => () => limited.request.get('/limited').set('x-caller', caller);
    expect(await statuses(ask('pest'), 3)).toEqual([200, 200, 200]);
    await limited.limiter.denyCaller({ header: 'x-caller', value: 'pest' }, 'ops');
    expect([...(await statuses(ask('pest'), 2)), ...(await statuses(ask('neighbour'), 3))]).toEqual([403, 403, 200, 200, 200]);
  });
});
