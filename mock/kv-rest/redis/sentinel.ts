// The primary of a Sentinel-managed set, as the redis engine finds it (`redis+sentinel://` URLs):
// the sentinels are asked in the order the URL lists them, and the first that names the primary
// is believed; the node is then checked with ROLE when the connection opens (connection.ts), since
// a sentinel can still name the old primary for a moment after a failover. Connections ask each
// time they open: the engine opens them at start and after one failed (the primary died) or was
// dropped on a READONLY reply (the primary was demoted), exactly when the primary may have changed;
// a kept connection costs nothing more.
import type { HostAndPort } from '../../../shared/store-address';
import type { Reply } from '../reply';

export interface SentinelSet {
  readonly sentinels: readonly HostAndPort[];
  readonly masterName: string;
  /** The sentinels' own credentials, when they have any (`?sentinelUsername=&sentinelPassword=`). */
  readonly user?: string;
  readonly password?: string;
}

/** Sends commands to one sentinel on a connection of its own, closed after the answer. */
export type AskSentinel = (sentinel: HostAndPort, commands: readonly (readonly string[])[]) => Promise<Reply[]>;

/** The primary the first answering sentinel names; rejects with every sentinel's failure when none does. */
export async function primaryOf(set: SentinelSet, ask: AskSentinel): Promise<HostAndPort> {
  const failures: string[] = [];
  for (const sentinel of set.sentinels) {
    const auth = set.password === undefined ? [] : [set.user === undefined ? ['AUTH', set.password] : ['AUTH', set.user, set.password]];
    try {
      const replies = await ask(sentinel, [...auth, ['SENTINEL', 'GET-MASTER-ADDR-BY-NAME', set.masterName]]);
      const named = replies[replies.length - 1];
      const refused = replies.find((reply) => reply.kind === 'error');
      if (refused?.kind === 'error') failures.push(`${sentinel.host}:${sentinel.port}: ${refused.message}`);
      else if (named.kind === 'array' && named.items.length === 2 && named.items.every((item) => item.kind === 'bulk')) {
        const [host, port] = named.items.map((item) => (item.kind === 'bulk' ? item.value : ''));
        return { host, port: Number(port) };
      } else failures.push(`${sentinel.host}:${sentinel.port}: no primary named ${set.masterName}`);
    } catch (failure) {
      failures.push(`${sentinel.host}:${sentinel.port}: ${(failure as Error).message}`);
    }
  }
  throw new Error(`no sentinel names the primary ${set.masterName} (${failures.join('; ')})`);
}

/** Whether a reply says the node is a replica now: a connection opened through the sentinels is then dropped. */
export const saysReplica = (reply: Reply): boolean => reply.kind === 'error' && reply.message.startsWith('READONLY');
