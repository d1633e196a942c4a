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
// Each check reacts to the turn's one answer where its members lie in it, checked once for the whole
// turn, where each check had a promise of its own (its resolving functions, an entry of the turn's
// list) resolved with a slice of the answer: a whole decision over redis:// under callgrind read 108k
// instructions where it read 113k at 20 requests per turn, and no more at one (issue 36,
// `npm run bench:instructions -- --per-turn 20`, docs/benchmarks.md).
import { TurnBatch } from '../../../shared/turn-batch';
import type { ScriptClient, ScriptReply } from '../store/script-client';
import { StoreUnavailableError } from '../store/rest/rest-connections';

/** `reply` when it holds one number per member; anything else is refused as a store failure, never read as a verdict. */
export function perMember(reply: ScriptReply, members: readonly string[]): number[] {
  if (!Array.isArray(reply) || reply.length !== members.length) {
    throw new StoreUnavailableError(`the key-value store answered the deny check with ${Array.isArray(reply) ? `an array of ${reply.length}` : String(reply)} where one number per member (${members.length}) was due`);
  }
  return reply;
}

/** One turn's SMISMEMBER: its answer, once it comes, and how many members the turn's checks asked about so far. */
interface TurnAnswer {
  readonly inSet: Promise<number[]>;
  resolve(inSet: number[]): void;
  reject(failure: unknown): void;
  asked: number;
}

function turnAnswer(): TurnAnswer {
  let resolve!: (inSet: number[]) => void;
  let reject!: (failure: unknown) => void;
  const inSet = new Promise<number[]>((resolved, rejected) => {
    resolve = resolved;
    reject = rejected;
  });
  return { inSet, resolve, reject, asked: 0 };
}

/** Whether the set holds any of the members at `from` up to `to` of a turn's answer. */
function anyIn(inSet: readonly number[], from: number, to: number): boolean {
  for (let index = from; index < to; index++) if (inSet[index] === 1) return true;
  return false;
}

export class TurnMembership {
  private readonly turn = new TurnBatch<readonly string[]>((asked) => this.ask(asked));
  /** The answer of the turn under way, made by its first check. */
  private answer: TurnAnswer | undefined;

  constructor(
    private readonly scripts: Pick<ScriptClient, 'membersIn'>,
    /** The deny list's set of members. */
    private readonly key: string,
  ) {}

  /**
   * `answered(true)` when the set holds one or more of `members`, else `answered(false)`, from the
   * turn's one SMISMEMBER; `failed` with its failure (every check of the turn gets it) when the
   * command fails or answers anything but one number per member.
   */
  check<T>(members: readonly string[], answered: (anyInSet: boolean) => T | PromiseLike<T>, failed: (failure: unknown) => T | PromiseLike<T>): Promise<T> {
    if (!this.turn.waiting) this.answer = turnAnswer();
    const answer = this.answer!;
    const from = answer.asked;
    const to = (answer.asked += members.length);
    this.turn.add(members);
    return answer.inSet.then((inSet) => answered(anyIn(inSet, from, to)), failed);
  }

  private ask(asked: ReadonlyArray<readonly string[]>): void {
    const answer = this.answer!;
    this.answer = undefined;
    let members = asked[0];
    if (asked.length > 1) {
      // A loop, not Array.prototype.flat (a generic property walk in V8, redis-connection.ts).
      const all: string[] = [];
      for (const one of asked) for (const member of one) all.push(member);
      members = all;
    }
    let reply: Promise<ScriptReply>;
    try {
      reply = this.scripts.membersIn(this.key, members);
    } catch (failure) {
      // Thrown in the turn's end callback it would be uncaught, and every check of the turn would wait forever.
      reply = Promise.reject(failure);
    }
    // One reaction, not a then and a catch: a lone request's turn (moderate load) pays it per decision.
    reply.then((reply) => {
      try {
        answer.resolve(perMember(reply, members));
      } catch (failure) {
        answer.reject(failure);
      }
    }, answer.reject);
  }
}
