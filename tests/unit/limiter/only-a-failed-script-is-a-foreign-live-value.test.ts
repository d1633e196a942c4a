// Finding 4 (its edge): a store call that failed is taken for a foreign live value only when the
// store says a script failed while it ran (`user_script:<n>`); any other error reply (a quota
// exceeded, a refused command) stays what it is, so it is handled as the outage it may be.
import { parseConfig } from '../../../server/src/config/parse-config';
import { compileConfig } from '../../../server/src/config/rules';
import { ForeignLiveLimitError, scriptFailure } from '../../../server/src/limiter/foreign-live-limit';
import { StoreCommandError } from '../../../server/src/store/script-client';

const [rule] = compileConfig(
  parseConfig({ url: 'http://127.0.0.1:9', token: 't', prefix: 'p', strategy: [{ methods: ['GET'], path: '/a', identifierSource: 'ip', limiter: { algorithm: 'fixed-window', tokens: 2, window: '1m' } }] }),
).rules;

describe('only a failed script is taken for a foreign live value', () => {
  it('a script that failed while it ran names the strategy and its live key', () => {
    const failure = scriptFailure(rule, new StoreCommandError('ERR user_script:33: attempt to compare nil with number script: 74740bb3, on @user_script:33.'));
    expect([failure instanceof ForeignLiveLimitError, (failure as Error).message]).toEqual([
      true,
      '[ratelimit] strategy[0] (GET /a): the live limit at p:live:GET:/a:fixed-window.1m:dynamic:global is not a whole number from 1 to 1000000000, so the store\'s answers for it are not used (failureMode applies) until "Back to config" removes it (the script failed: ERR user_script:33: attempt to compare nil with number script: 74740bb3, on @user_script:33.; a counter of the strategy holding no number fails it too)',
    ]);
  });

  it.each([new StoreCommandError('ERR max daily request limit exceeded'), new StoreCommandError('NOPERM this user has no permissions to run the evalsha command'), new Error('socket hang up')])('%p stays as it is', (failure) => {
    expect(scriptFailure(rule, failure)).toBe(failure);
  });
});
