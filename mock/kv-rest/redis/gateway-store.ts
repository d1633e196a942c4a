// What the redis engine keeps in Redis for itself, so that every REST server in front of one Redis
// answers as one, before and after restarts: the daily command count, the texts of the scripts
// clients loaded (by their SHA), and the names of the ACL users created through the REST API, the
// only existing users it may change or delete (trust round 4, finding 5: it changed any). All three live in the gateway's private database (`privateDb`, 15 by
// default), which the REST API cannot reach: its users may not SELECT, SWAPDB or MOVE, FLUSHALL is
// sent as FLUSHDB of the served database, KEYS and SCAN see the served database only. The daily
// count's key name carries a digest of the Standard token, the served database and the URL's
// password: per deployment. All their names start with PRIVATE_KEY_PREFIX, which no REST user may write
// (private-keys.ts), so a script's `COPY ... DB <private db>` cannot replace them; a script text is
// used only under the SHA it hashes to anyway.
// On the same connection the gateway asks Redis's Lua whether script chunks compile (script-guard.ts);
// those answers are never filed: a forged one could let a script out of the guard.
import { derivedSecret } from '../derived-secrets';
import type { DailyCount } from '../engine';
import type { Reply } from '../reply';
import { RedisConnection, type RedisAddress } from './connection';
import { PRIVATE_KEY_PREFIX } from './private-keys';
import { COMPILES_ALONE } from './script-guard';

/** The hash of script texts by their client SHA; one per Redis, as Redis's own script cache is. */
const SCRIPTS_KEY = `${PRIVATE_KEY_PREFIX}scripts`;
/** The set of ACL users created through the REST API; one per Redis, as its ACL users are. */
const USERS_KEY = `${PRIVATE_KEY_PREFIX}users`;

/**
 * Adds ARGV[1] to the count of the current UTC day of Redis's own clock unless that passes ARGV[2];
 * the key dies at the end of its day. Answers {accepted 0/1, count before}.
 */
const COUNT_TODAY = `local day = math.floor(tonumber(redis.call('TIME')[1]) / 86400)
local key = KEYS[1] .. ':' .. day
local used = tonumber(redis.call('GET', key) or '0')
if used + tonumber(ARGV[1]) > tonumber(ARGV[2]) then return {0, used} end
redis.call('INCRBY', key, ARGV[1])
redis.call('EXPIREAT', key, (day + 1) * 86400)
return {1, used}`;

export class GatewayStore {
  private connection: Promise<RedisConnection> | undefined;
  private readonly address: RedisAddress;
  private readonly dailyKey: string;

  constructor(served: RedisAddress, privateDb: number, sharedSecret: string | undefined, private readonly timeoutMs: number) {
    this.address = { ...served, db: privateDb };
    const deployment = derivedSecret(`${sharedSecret ?? ''}\0${served.db}\0${served.password ?? ''}`, 'daily count key name', 16).toString('hex');
    this.dailyKey = `${PRIVATE_KEY_PREFIX}daily:${deployment}`;
  }

  /** Opens the connection to the private database: fails when Redis refuses SELECT of it. */
  async check(): Promise<void> {
    await this.send([['PING']]);
  }

  async countToday(count: number, limit: number): Promise<DailyCount> {
    const [reply] = await this.send([['EVAL', COUNT_TODAY, '1', this.dailyKey, String(count), String(limit)]]);
    if (reply.kind !== 'array' || reply.items.length !== 2) throw new Error(`the daily count failed: ${reply.kind === 'error' ? reply.message : 'unexpected reply'}`);
    const [accepted, used] = reply.items.map((item) => (item.kind === 'integer' ? Number(item.value) : 0));
    return { accepted: accepted === 1, used };
  }

  /** Files script texts under their client SHAs. */
  async storeScripts(scripts: ReadonlyMap<string, string>): Promise<void> {
    if (scripts.size === 0) return;
    const [reply] = await this.send([['HSET', SCRIPTS_KEY, ...[...scripts].flat()]]);
    if (reply.kind === 'error') throw new Error(`the script texts could not be filed: ${reply.message}`);
  }

  /** The texts filed under `shas`, in order; undefined where none is. */
  async findScripts(shas: readonly string[]): Promise<(string | undefined)[]> {
    const [reply] = await this.send([['HMGET', SCRIPTS_KEY, ...shas]]);
    return shas.map((_, index) => {
      const item = reply.kind === 'array' ? reply.items[index] : undefined;
      return item?.kind === 'bulk' ? item.value : undefined;
    });
  }

  /** Of `users`, those that exist in Redis but were not created through the REST API. */
  async foreignUsers(users: readonly string[]): Promise<Set<string>> {
    const names = [...new Set(users)];
    if (names.length === 0) return new Set();
    const replies = await this.send([['SMISMEMBER', USERS_KEY, ...names], ...names.map((name) => ['ACL', 'GETUSER', name])]);
    const [ours, ...existing] = replies;
    if (ours.kind !== 'array') throw new Error(`the REST API's users could not be read: ${ours.kind === 'error' ? ours.message : 'unexpected reply'}`);
    // An error (NOPERM: the url's user may not ACL GETUSER) is no answer: read as "no such user", it
    // would let the API change any user.
    const refused = existing.find((reply) => reply.kind === 'error');
    if (refused?.kind === 'error') throw new Error(`Redis's users could not be read: ${refused.message}`);
    return new Set(names.filter((_, index) => existing[index].kind === 'array' && !(ours.items[index].kind === 'integer' && Number(ours.items[index].value) === 1)));
  }

  /** Records users created or changed through the REST API (`created`) and forgets those it deleted. */
  async recordUsers(created: readonly string[], deleted: readonly string[]): Promise<void> {
    const commands = [...(created.length > 0 ? [['SADD', USERS_KEY, ...created]] : []), ...(deleted.length > 0 ? [['SREM', USERS_KEY, ...deleted]] : [])];
    if (commands.length === 0) return;
    const refused = (await this.send(commands)).find((reply) => reply.kind === 'error');
    if (refused?.kind === 'error') throw new Error(`the REST API's users could not be filed: ${refused.message}`);
  }

  /** Whether Redis's Lua compiles each chunk on its own, in order; undefined where Redis answered an error (BUSY while a script runs). */
  async compileAlone(chunks: readonly string[]): Promise<(boolean | undefined)[]> {
    const replies = await this.send(chunks.map((chunk) => ['EVAL', COMPILES_ALONE, '0', chunk]));
    return replies.map((reply) => (reply.kind === 'integer' ? Number(reply.value) === 1 : undefined));
  }

  /** After SCRIPT FLUSH: the texts go with Redis's scripts. */
  async forgetScripts(): Promise<void> {
    await this.send([['DEL', SCRIPTS_KEY]]);
  }

  close(): void {
    void this.connection?.then((connection) => connection.close(), () => undefined);
    this.connection = undefined;
  }

  /** Sends on the private database's connection, opened (again) when missing or dead. */
  private async send(commands: readonly (readonly string[])[]): Promise<Reply[]> {
    const pending = this.connection;
    const existing = await pending?.catch(() => undefined);
    if (!existing?.usable && this.connection === pending) this.connection = RedisConnection.open(this.address, this.timeoutMs);
    return (await this.connection!).send(commands);
  }
}
