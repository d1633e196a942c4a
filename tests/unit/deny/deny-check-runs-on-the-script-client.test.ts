// The deny check runs on the plugin's script client, the limits' own path to the store: SMISMEMBER,
// then, for a member in the set, its script: EVALSHA, EVAL once when the store answers NOSCRIPT (it
// has just restarted), then EVALSHA again; the store's other error replies are passed on as they
// are; and a reply neither step gives (not one number per member) is refused as a store failure,
// never read as a verdict.
import { Redis, type Requester } from '@upstash/redis';
import { DenyCheck } from '../../../server/src/deny/deny-check';
import { denyListKeys } from '../../../server/src/deny/deny-members';
import { createScriptClient } from '../../../server/src/store/script-client';
import { storeAnswering } from './deny-store-stand-in';

const keys = denyListKeys('p');

describe('the deny check on the script client', () => {
  it('falls back to EVAL on NOSCRIPT (a store that has just restarted), then goes by EVALSHA again', async () => {
    const { scripts, sent } = storeAnswering([-1], true);
    // cacheMs 0: the second check asks the store again.
    const check = new DenyCheck(scripts, keys, 0, 100);
    expect([await check.check(['a'], 1), await check.check(['a'], 2)]).toEqual(['a', 'a']);
    expect(sent).toEqual([
      'SMISMEMBER p:denyList:all a',
      'EVALSHA deny-check p:denyList:all p:denyList:until 1 a',
      'EVAL deny-check p:denyList:all p:denyList:until 1 a',
      'SMISMEMBER p:denyList:all a',
      'EVALSHA deny-check p:denyList:all p:denyList:until 2 a',
    ]);
  });

  it('sends no script when the set holds none of the members (nearly every request)', async () => {
    const { scripts, sent } = storeAnswering([0, 0]);
    expect(await new DenyCheck(scripts, keys, 10_000, 100).check(['a', 'b'], 1)).toBeUndefined();
    expect(sent).toEqual(['SMISMEMBER p:denyList:all a b']);
  });

  it('refuses a reply that is not one number per member, rather than guessing a verdict from it', async () => {
    const outcome = (reply: unknown, members: string[]) =>
      new DenyCheck(storeAnswering(reply).scripts, keys, 10_000, 100).check(members, 1).then(
        (denied) => `denied: ${denied}`,
        (failure: Error) => `${failure.name}: ${failure.message}`,
      );
    expect(await Promise.all([outcome([0], ['a', 'b']), outcome([0, -1, 0], ['a', 'b']), outcome(-1, ['a']), outcome(null, ['a']), outcome(['-1'], ['a']), outcome([0, -1], ['a', 'b'])])).toEqual([
      'StoreUnavailableError: the key-value store answered the deny check with an array of 1 where one number per member (2) was due',
      'StoreUnavailableError: the key-value store answered the deny check with an array of 3 where one number per member (2) was due',
      'StoreUnavailableError: the key-value store answered the deny check with -1 where one number per member (1) was due',
      'StoreUnavailableError: the key-value store answered the deny check with null where one number per member (1) was due',
      'StoreUnavailableError: the key-value store answered SMISMEMBER with a reply no rate-limit script gives',
      'denied: b',
    ]);
  });

  it('passes an error reply other than NOSCRIPT on with its text, without sending EVAL', async () => {
    const sent: string[] = [];
    const requester: Requester = { request: async ({ body }) => (sent.push(String((body as unknown[])[0])), { error: 'WRONGTYPE Operation against a key holding the wrong kind of value' } as never) };
    const check = new DenyCheck(createScriptClient(requester, new Redis(requester)), keys, 10_000, 100);
    await expect(check.check(['a'], 1)).rejects.toThrow(expect.objectContaining({ name: 'StoreCommandError', message: 'WRONGTYPE Operation against a key holding the wrong kind of value' }));
    expect(sent).toEqual(['smismember']);
  });
});
