// Review of the two-step deny check (server/src/deny/deny-check.ts, turn-membership.ts): SMISMEMBER
// came with Redis 6.2, and a Redis user's ACL may lack it. Its error made every deny check fail, so
// every limited request followed the failure mode (open by default: a denied caller let in). A store
// that refuses SMISMEMBER now gets the script alone, as before the two steps; and a client that
// throws where it should reject fails the turn's checks instead of leaving them waiting forever.
import { Redis, type Requester, type UpstashRequest } from '@upstash/redis';
import { DenyCheck } from '../../../server/src/deny/deny-check';
import { denyListKeys } from '../../../server/src/deny/deny-members';
import { EmbeddedRequester } from '../../../server/src/store/embedded/embedded-requester';
import { createScriptClient } from '../../../server/src/store/script-client';

const NOW = 1_800_000_000_000;

/** The embedded store, answering SMISMEMBER as Redis 6.0 does, and counting the SMISMEMBER calls. */
function storeWithoutSmismember(): { requester: Requester; smismemberCalls: () => number; close(): void } {
  const inner = new EmbeddedRequester();
  let calls = 0;
  const requester: Requester = {
    request: <T>(request: UpstashRequest) => {
      const body = request.body as unknown[];
      if (String(body[0]).toLowerCase() !== 'smismember') return inner.request<T>(request);
      calls += 1;
      return Promise.resolve({ error: "ERR unknown command 'smismember', with args beginning with: " });
    },
  };
  return { requester, smismemberCalls: () => calls, close: () => inner.close() };
}

describe('a store without SMISMEMBER still refuses denied callers', () => {
  it('falls back to the script alone once SMISMEMBER is refused, and asks no SMISMEMBER again', async () => {
    const store = storeWithoutSmismember();
    try {
      const redis = new Redis(store.requester);
      const keys = denyListKeys('old-redis');
      await redis.sadd(keys.all, 'ip:192.0.2.1');
      const check = new DenyCheck(createScriptClient(store.requester, redis), keys, 0, 0);
      const verdicts = [];
      for (const members of [['ip:192.0.2.1'], ['ip:192.0.2.9'], ['ip:192.0.2.9', 'ip:192.0.2.1']]) verdicts.push(await check.check(members, NOW));
      expect([verdicts, store.smismemberCalls()]).toEqual([['ip:192.0.2.1', undefined, 'ip:192.0.2.1'], 1]);
    } finally {
      store.close();
    }
  });

  it("rejects the turn's checks when the client throws instead of rejecting, leaving none waiting", async () => {
    const thrown = new Error('the client threw');
    const scripts = {
      run: () => Promise.reject(new Error('not reached')),
      membersIn: () => {
        throw thrown;
      },
    };
    const check = new DenyCheck(scripts, denyListKeys('throwing'), 0, 0);
    const outcomes = await Promise.allSettled([check.check(['ip:192.0.2.1'], NOW), check.check(['ip:192.0.2.2'], NOW)]);
    expect(outcomes).toEqual([
      { status: 'rejected', reason: thrown },
      { status: 'rejected', reason: thrown },
    ]);
  });
});
