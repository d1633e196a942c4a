// The admin side of the deny list in the store: adding a member (the SET the library and the
// console read, with our expiry and who/when beside it, in one transaction), lifting one (any
// member, console-added ones included), and listing the members with their metadata, bounded: one
// SSCAN pass of at most `maxMembers` members and 20 calls, then one HMGET and one ZMSCORE for those.
// Who added a member is kept as the admin's id, never their email: the meta HASH is readable with
// the store's Read Only token, which docs/security.md says to assume public ("What the store
// holds, and who can read it"). A member longer than MAX_LIFTABLE_MEMBER_LENGTH is left out of the listing:
// it can match no request (no header Node accepts is that long) and the lift would refuse it.
// Timed entries that have passed are removed here, never by a request's check: `sweepExpired`
// removes those that both the sweeping instance's clock and the store's (TIME) say have passed, so an
// instance whose clock runs ahead removes none early for the others (issue 34 finding 4). The admin
// side sweeps before each deny and each listing; an instance whose requests meet an expired entry
// sweeps too, off the request path (expired-entry-sweeps.ts). The sweep is housekeeping: when it
// fails (a Redis user not allowed TIME), the deny or the listing goes on, and expired entries wait
// for the next sweep (each costs its caller's requests the check's second step meanwhile, nothing else).
import type { Redis } from '@upstash/redis';
import type { DeniedCaller, DenyListReport } from '../admin-api/usage-types';
import type { DenyListKeys } from './deny-members';
import { MAX_LIFTABLE_MEMBER_LENGTH, memberKind } from './deny-members';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { readStoreClock } from '../store/store-clock';

interface DenyMeta {
  /** The id of the admin user who added it (absent: added from code with no admin). */
  readonly adminId?: string;
  readonly at: number;
}

const SCAN_BATCH = 500;
/** SSCAN may answer empty batches on a sparse set: the calls are bounded too. */
const MAX_SCAN_CALLS = 20;

export async function addDenied(redis: Redis, keys: DenyListKeys, member: string, meta: DenyMeta, until: number | undefined): Promise<void> {
  const transaction = redis.multi();
  transaction.sadd(keys.all, member);
  transaction.hset(keys.meta, { [member]: JSON.stringify(meta) });
  if (until === undefined) transaction.zrem(keys.until, member);
  else transaction.zadd(keys.until, { score: until, member });
  await transaction.exec();
}

/** Timed entries an admin action's sweep removes at most: each admin action sweeps again (an instance's own sweep goes on to the end). */
const MAX_SWEPT_BY_AN_ADMIN = 1000;

/**
 * KEYS: all, until, meta; ARGV: the moment (ms), the most entries to remove. Removes the entries whose
 * expiry is at or before the moment from all three, in one step: an entry denied again meanwhile has
 * its new expiry and stays. Answers how many it removed.
 */
const SWEEP_EXPIRED_SCRIPT = `local expired = redis.call('ZRANGEBYSCORE', KEYS[2], '-inf', ARGV[1], 'LIMIT', 0, ARGV[2])
for _, member in ipairs(expired) do
  redis.call('SREM', KEYS[1], member)
  redis.call('ZREM', KEYS[2], member)
  redis.call('HDEL', KEYS[3], member)
end
return #expired`;

/**
 * The moment up to which timed entries have passed by both `now` (the sweeping instance's clock) and
 * the store's: the earlier of the two, so neither a fast instance nor a fast store ends a deny early.
 */
async function sweepMoment(redis: Redis, now: number): Promise<number> {
  return Math.min(now, await readStoreClock(redis));
}

/**
 * Entries removed per script (an SREM, a ZREM and an HDEL each): the store runs nothing else
 * meanwhile. The memory engine runs the script in Lua compiled to JavaScript (fengari), on the
 * embedded store in the app's own process: measured in this stop's review, a script of 256 took 41 to
 * 101 ms there (5,000 entries swept in 415 ms, the app's event loop delayed up to 74 ms), against 1.2
 * to 1.7 ms on redis-server 7.0.15 (INFO commandstats, the loaded 2-core test machine). 32 keeps a
 * script near a tenth of that on either; the sweep takes more round trips, a turn of the event loop
 * between them.
 */
const SWEEP_CHUNK = 32;

/**
 * Removes up to `most` of the timed entries that have passed by `now` and by the store's clock
 * (sweepMoment), SWEEP_CHUNK per script and a turn between scripts, until a script comes back short;
 * answers how many it removed.
 */
export async function sweepExpired(redis: Redis, keys: DenyListKeys, now: number, most = MAX_SWEPT_BY_AN_ADMIN): Promise<number> {
  const moment = await sweepMoment(redis, now);
  let removed = 0;
  while (removed < most) {
    const chunk = Math.min(SWEEP_CHUNK, most - removed);
    const swept = Number(await redis.eval(SWEEP_EXPIRED_SCRIPT, [keys.all, keys.until, keys.meta], [moment, chunk]));
    removed += swept;
    if (swept < chunk) break;
    await nextTurn();
  }
  return removed;
}

/** Whether the member was on the list. */
export async function liftDenied(redis: Redis, keys: DenyListKeys, member: string): Promise<boolean> {
  const transaction = redis.multi();
  transaction.srem(keys.all, member);
  transaction.zrem(keys.until, member);
  transaction.hdel(keys.meta, member);
  const [removed] = (await transaction.exec()) as [number, number, number];
  return removed === 1;
}

/** A meta value as the plugin writes it; anything else (a foreign writer's) reads as none. */
function readMeta(value: unknown): Partial<DenyMeta> {
  const parsed = typeof value === 'string' ? safeJson(value) : value;
  if (typeof parsed !== 'object' || parsed === null) return {};
  const { adminId, at } = parsed as Record<string, unknown>;
  return { ...(typeof adminId === 'string' ? { adminId } : {}), ...(typeof at === 'number' ? { at } : {}) };
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

export async function listDenied(redis: Redis, keys: DenyListKeys, now: number, maxMembers: number): Promise<Omit<DenyListReport, 'enabled' | 'cacheSeconds'>> {
  await sweepExpired(redis, keys, now).catch(() => 0);
  const members: string[] = [];
  let cursor = '0';
  let calls = 0;
  let unlisted = false;
  do {
    const [next, batch] = await redis.sscan(keys.all, cursor, { count: SCAN_BATCH });
    cursor = String(next);
    calls += 1;
    for (const member of batch.map(String)) {
      if (member.length > MAX_LIFTABLE_MEMBER_LENGTH) unlisted = true;
      else if (members.length < maxMembers) members.push(member);
    }
  } while (cursor !== '0' && members.length < maxMembers && calls < MAX_SCAN_CALLS);
  const totalExact = cursor === '0' && !unlisted;
  if (members.length === 0) return { members: [], totalExact };
  const pipeline = redis.pipeline();
  pipeline.hmget(keys.meta, ...members);
  pipeline.zmscore(keys.until, members);
  const [metas, expiries] = (await pipeline.exec()) as [Record<string, unknown> | null, Array<number | null> | null];
  const denied: DeniedCaller[] = [];
  members.forEach((member, index) => {
    const until = expiries?.[index] ?? undefined;
    // Expired by this instance's clock, not yet by the store's: no longer denied here.
    if (until !== undefined && until !== null && Number(until) <= now) return;
    const meta = readMeta(metas?.[member]);
    denied.push({ member, kind: memberKind(member), ...meta, ...(until === undefined || until === null ? {} : { until: Number(until) }) });
  });
  denied.sort((a, b) => (b.at ?? 0) - (a.at ?? 0) || a.member.localeCompare(b.member));
  return { members: denied, totalExact };
}
