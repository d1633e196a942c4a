// The engine interface: what the HTTP layer needs from a keyspace, whichever one serves it.
// `memory` (embedded, the default) and `redis` (a real redis-server over TCP) both implement it.
import { createHash } from 'node:crypto';
import type { Reply } from './reply';
import type { ResolvedCommand } from './resolved-command';
import type { ResponseBudget } from './response-budget';

/** The form `Caller.passwordSha256` carries a password in (and the memory engine's ACL stores it in). */
export const passwordSha256Of = (password: string): string => createHash('sha256').update(password, 'latin1').digest('hex');

/** Who runs a command: the ACL user (`default` for the database's own tokens) and the client address. */
export interface Caller {
  readonly user: string;
  /** `ip:port` of the HTTP client, shown by MONITOR. */
  readonly address: string;
  /**
   * For a token minted by ACL RESTTOKEN: the SHA-256 (hex) of the password it was minted with. The
   * engine refuses the caller as soon as the user no longer has that password (or is deleted, or
   * off), so a token never outlives the credential it stands for.
   */
  readonly passwordSha256?: string;
  /** For a token minted by ACL RESTTOKEN: the password itself, which the redis engine authenticates with as the user. */
  readonly password?: string;
  /** The database's Read Only token: the redis engine runs its commands as a user confined to that token's rights. */
  readonly readOnly?: boolean;
}

export interface ExecuteOptions {
  /** Run the commands atomically (MULTI/EXEC): no other command interleaves. */
  readonly transaction: boolean;
  readonly caller: Caller;
  /**
   * What the replies of these commands may hold together (see response-budget.ts). The engine
   * spends it while it builds or reads each reply; once it is passed, every command still runs (a
   * transaction stays atomic) but no reply past the bound is built or kept: those slots hold the
   * budget's refusal, which the caller answers for the whole request.
   */
  readonly budget?: ResponseBudget;
}

/** One pub/sub event as RESP fields: `subscribe,<channel>,<count>`, `message,<channel>,<text>`, `pmessage,...`. */
export type PubSubListener = (fields: readonly string[]) => void;

export interface Subscription {
  close(): Promise<void>;
}

/** Today's command count after a reservation: whether the commands fitted under the limit, and the count before them. */
export interface DailyCount {
  readonly accepted: boolean;
  readonly used: number;
}

export interface Engine {
  readonly name: 'memory' | 'redis';
  /** Resolves once the engine can serve; rejects with one line that says why it cannot. */
  ready(): Promise<void>;
  /**
   * Adds `count` commands to today's (UTC) count of the REST API unless that would pass `limit`.
   * The count lives where the engine keeps its data, so every REST server of one store shares it.
   */
  countToday(count: number, limit: number): Promise<DailyCount>;
  /**
   * Runs commands in order and answers one reply per command. Each command comes resolved (see
   * resolved-command.ts): its arguments are byte strings (see bytes.ts), the name first, as sent
   * (any case), and its table entry has passed the HTTP layer's checks (known, arity, REST policy,
   * permissions of the token), so the engine looks nothing up again. Run-time failures are error
   * replies in their slot; the promise rejects only when the engine itself is unavailable (never a
   * synchronous throw: callers map the rejection, command-runner.ts). A
   * transaction with a command the ACL user may not run is discarded as Redis discards it: nothing
   * runs, the refused slot carries its NOPERM error and every other slot EXECABORT.
   */
  execute(commands: readonly ResolvedCommand[], options: ExecuteOptions): Promise<Reply[]>;
  /** True when `user` exists, is enabled and `password` is one of its passwords. */
  authenticate(user: string, password: string): Promise<boolean>;
  subscribe(mode: 'channel' | 'pattern', targets: readonly string[], listener: PubSubListener, caller: Caller): Promise<Subscription>;
  /** `onLine` gets MONITOR lines without the `+`: `1721284005.242090 [0 127.0.0.1:52144] "GET" "k"`. */
  monitor(onLine: (line: string) => void, caller: Caller): Promise<Subscription>;
  close(): Promise<void>;
}

/** An engine's refusal of a stream for the caller (NOPERM ...): answered as the command error it is. */
export class EngineRefusal extends Error {}
