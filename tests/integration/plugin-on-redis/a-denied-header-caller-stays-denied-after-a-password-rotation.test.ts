// Issue 34 finding 1: the key of the header identifiers' HMAC was derived from the Redis url, its
// password included, so rotating the Redis user's password changed every hashed header identifier:
// counters restarted and a header caller on the deny list was let back in, silently. The key is now
// created once in the store and read by every instance (server/src/http/header-hash-key.ts): an
// instance restarted with the new password keys the caller as before.
import { randomBytes } from 'node:crypto';
import { appsClosedAfterEach, limitedApp, strategy, type LimitedApp } from '../plugin/support';
import { describeWithRedisOfTheRun } from '../../support/installed-program';
import { RedisClient } from '../../fixtures/redis-client';
import { freshPrefix } from './support';

describeWithRedisOfTheRun('a Redis password rotation', () => {
  const apps = appsClosedAfterEach();
  const user = `rotating-${randomBytes(4).toString('hex')}`;
  const prefix = freshPrefix('rotation');
  const urlWith = (password: string): string => {
    const url = new URL(process.env.REDIS_URL!);
    url.username = user;
    url.password = password;
    return url.toString();
  };
  const instance = (password: string): LimitedApp => {
    const app = limitedApp({ url: urlWith(password), prefix, denyCacheMs: 0, strategy: [strategy({ identifierSource: 'header.x-api-key' }, { tokens: 5 })] });
    apps.push(app);
    return app;
  };
  const ask = (args: string[]) => RedisClient.ask(process.env.REDIS_URL!, args);

  beforeAll(() => ask(['ACL', 'SETUSER', user, 'on', '>first-password', `~${prefix}:*`, '+@all']));
  afterAll(() => ask(['ACL', 'DELUSER', user]));

  it('keeps a denied header caller denied once the instance restarts with the new password', async () => {
    const before = instance('first-password');
    expect((await before.request.get('/limited').set('x-api-key', 'k1')).status).toBe(200);
    await before.limiter.denyCaller({ header: 'x-api-key', value: 'k1' }, 'admin@example.com');
    expect((await before.request.get('/limited').set('x-api-key', 'k1')).status).toBe(403);
    before.close();

    await ask(['ACL', 'SETUSER', user, 'resetpass', '>second-password']);
    const after = instance('second-password');
    const seen = [(await after.request.get('/limited').set('x-api-key', 'k1')).status, (await after.request.get('/limited').set('x-api-key', 'k2')).status];
    expect(seen).toEqual([403, 200]);
  });
});
