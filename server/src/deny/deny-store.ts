// The admin side of the deny list in the store: adding a member (the SET the library and the
// console read, with our expiry and who/when beside it, in one transaction), lifting one (any
// member, console-added ones included), and listing the members with their metadata, bounded: one
// SSCAN pass of at most `maxMembers` members and 20 calls, then one HMGET and one ZMSCORE for those.
// Who added a member is kept as the admin's id, never their email: the meta HASH is readable with
// the store's Read Only token, which docs/security.md says to assume public ("What the store
// holds, and who can read it"). A member longer than MAX_LIFTABLE_MEMBER_LENGTH is left out of the listing:
// it can match no request (no header Node accepts is that long) and the lift would refuse it.
import type { Redis } from '@upstash/redis';
import type { DeniedCaller, DenyListReport } from '../admin-api/usage-types';
import type { DenyListKeys } from './deny-members';
import { MAX_LIFTABLE_MEMBER_LENGTH, memberKind } from './deny-members';

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
    // Expired, not yet removed by a request's check: no longer denied.
    if (until !== undefined && until !== null && Number(until) <= now) return;
    const meta = readMeta(metas?.[member]);
    denied.push({ member, kind: memberKind(member), ...meta, ...(until === undefined || until === null ? {} : { until: Number(until) }) });
  });
  denied.sort((a, b) => (b.at ?? 0) - (a.at ?? 0) || a.member.localeCompare(b.member));
  return { members: denied, totalExact };
}
