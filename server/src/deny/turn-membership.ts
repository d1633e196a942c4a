// The first step of the deny check (deny-check.ts) for every request of one turn of the event loop:
// one SMISMEMBER of all their members, each request reading its own part of the answer. A request's
// SMISMEMBER cost the app one store command of its own (over redis:// an ioredis command, its promise
// and the transport's envelope), where the turn's requests now share one; the set is read once for
// them all, in the same state each would have read in the same write. It is sent when the turn's I/O
// callbacks have run (shared/turn-batch.ts), before the store's own batch of that turn leaves: the
// first check of a turn is asked before its request's limits, so its end-of-turn callback usually
// comes first and the command rides the round trip of the turn's limits. Not always: when another
// store command was queued earlier in the turn (an analytics event, a refund sent from a reply's
// callback), the store's batch leaves first and SMISMEMBER follows in the next one.
import { TurnBatch } from '../../../shared/turn-batch';
import type { ScriptClient, ScriptReply } from '../store/script-client';
import { StoreUnavailableError } from '../store/rest/rest-connections';

interface Asked {
  readonly members: readonly string[];
  resolve(inSet: number[]): void;
  reject(failure: unknown): void;
}

/** `reply` when it holds one number per member; anything else is refused as a store failure, never read as a verdict. */
export function perMember(reply: ScriptReply, members: readonly string[]): number[] {
  if (!Array.isArray(reply) || reply.length !== members.length) {
    throw new StoreUnavailableError(`the key-value store answered the deny check with ${Array.isArray(reply) ? `an array of ${reply.length}` : String(reply)} where one number per member (${members.length}) was due`);
  }
  return reply;
}

export class TurnMembership {
  private readonly turn = new TurnBatch<Asked>((asked) => this.ask(asked));

  constructor(
    private readonly scripts: Pick<ScriptClient, 'membersIn'>,
    /** The deny list's set of members. */
    private readonly key: string,
  ) {}

  /** Per member, 1 when the set holds it, else 0, from the turn's one SMISMEMBER; rejects as that command does. */
  inSet(members: readonly string[]): Promise<number[]> {
    return new Promise((resolve, reject) => this.turn.add({ members, resolve, reject }));
  }

  private ask(asked: readonly Asked[]): void {
    const members = asked.length === 1 ? asked[0].members : asked.flatMap((one) => one.members);
    let reply: Promise<ScriptReply>;
    try {
      reply = this.scripts.membersIn(this.key, members);
    } catch (failure) {
      // Thrown in the turn's end callback it would be uncaught, and every check of the turn would wait forever.
      reply = Promise.reject(failure);
    }
    reply
      .then((reply) => {
        const inSet = perMember(reply, members);
        if (asked.length === 1) return asked[0].resolve(inSet);
        let offset = 0;
        for (const one of asked) one.resolve(inSet.slice(offset, (offset += one.members.length)));
      })
      .catch((failure: unknown) => {
        for (const one of asked) one.reject(failure);
      });
  }
}
