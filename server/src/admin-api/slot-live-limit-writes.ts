// A live limit's change on a Redis Cluster: its 16,384 copies (one per slot, beside the counters
// whose scripts read it: limiter/live-limit-scope.ts) written in chunks of CHUNK_SLOTS, one chunk in
// flight at a time and a turn of the event loop between chunks, through the store's admin requester
// (store/open-store.ts: the same connections, breakers and a deadline of its own), never the request
// path's. Issue 34 review finding 8, measured before: the 16,384 writes left in one pipelined batch
// through the request path, each change took 576-1106 ms and held the event loop 194-287 ms; with
// `timeout: 100` the call failed although every copy was written, and it opened every master's
// breaker, so live requests got the failure mode for the next 100 ms.
// Versions: each change takes a number from the strategy's sequence (INCR) and writes each copy with
// a script that also keeps, in the copy's slot, the version that wrote it, and writes nothing where a
// newer version already wrote. So when two changes overlap (two admins, two instances), each slot ends
// with the newer one whatever order their chunks land in, and a chunk of an abandoned change that
// lands late cannot undo a newer change. A slot whose stored version is newer than the sequence (the
// sequence key lost in a failover) raises the sequence to it, so the next change writes everywhere.
// A version lives VERSION_LIFETIME_MS, then expires (issue 34 review, left over: 16,384 version keys,
// 1-2 MB, stayed forever after every change, "Back to config" included): it only has to outlive the
// writes of every older change (see VERSION_LIFETIME_MS), so a day after a change a cleared live limit
// leaves no key and a set one only its copies.
// The result is accurate: success only when every copy was written by this change; otherwise an
// error saying how many of the 16,384 were written, which the next change (set or back to config)
// repairs, since it writes every slot again with a newer version.
import type { Requester, UpstashResponse } from '@upstash/redis';
import { scriptSha } from '../../../shared/script-shebang';
import { CLUSTER_SLOTS } from '../config/cluster-slots';
import { liveLimitSequenceKey, liveLimitSlotKeys } from '../limiter/live-limit-scope';
import { failureMessage } from '../failure-message';

/**
 * Copies written per chunk. Measured ad hoc on the 2-core test machine (a 3-master Cluster, the
 * machine loaded by other work): a copy costs 19-25 µs of CPU, its command made and sent and its reply
 * read; a chunk's commands are made and sent in 1.0-1.35 ms of CPU (median over a change's 128 chunks,
 * 90th percentile 1.6-3.0 ms, longest 5.5 ms), its replies read in about as long; a change costs
 * 0.3-0.4 s of CPU.
 */
const CHUNK_SLOTS = 128;

/**
 * After how long a change starts no more chunks and reports what it wrote (docs/live-limits.md):
 * generous, a change is seldom and its chunks wait for one another; a chunk's commands have the admin
 * requester's own timeout (store/open-store.ts ADMIN_COMMAND_TIMEOUT_MS), so a change ends within both.
 */
const LIVE_LIMIT_CHANGE_DEADLINE_MS = 10_000;

/**
 * How long a slot's version is kept after the change that wrote it: a day. A version is there to
 * refuse the copies of older changes, which took their numbers before this one. An older change's
 * process stops sending by its own clock (LIVE_LIMIT_CHANGE_DEADLINE_MS, then one chunk's
 * ADMIN_COMMAND_TIMEOUT_MS (store/open-store.ts), twice with a NOSCRIPT fallback: 14 s), but a process paused between
 * that check and its send (a VM paused, SIGSTOP, a debugger) sends when it resumes, and nothing in
 * Redis then refuses a copy whose version has expired: the review of the 60 s this had at first
 * made a change held 62 s overwrite 128 slots of a newer one that had reported success. A day covers
 * any pause a process comes back from in practice, and still removes the 16,384 keys (1-2 MB per
 * strategy) that were kept forever; the next change repairs a slot an older copy reached, as after a
 * partial write.
 */
export const VERSION_LIFETIME_MS = 24 * 60 * 60 * 1000;

/**
 * KEYS: a slot's copy and its version; ARGV: the change's version, the tokens ('' removes the copy),
 * the version's lifetime (ms). Returns 0 when written, else the newer version that wrote the copy.
 */
const WRITE_COPY = `local stored = tonumber(redis.call('GET', KEYS[2]))
if stored and stored > tonumber(ARGV[1]) then return stored end
redis.call('SET', KEYS[2], ARGV[1], 'PX', ARGV[3])
if ARGV[2] == '' then redis.call('DEL', KEYS[1]) else redis.call('SET', KEYS[1], ARGV[2]) end
return 0`;
const WRITE_COPY_SHA = scriptSha(WRITE_COPY);

/** KEYS: the sequence; ARGV: a version seen in a slot. Raises the sequence to it. */
const RAISE_SEQUENCE = `if (tonumber(redis.call('GET', KEYS[1])) or 0) < tonumber(ARGV[1]) then redis.call('SET', KEYS[1], ARGV[1]) end
return 0`;

/** Thrown when a change did not write every copy: how many it did, and that changing again repairs it. */
class LiveLimitWriteError extends Error {
  override readonly name = 'LiveLimitWriteError';
}

/** What became of one slot's copy. */
type CopyOutcome = { readonly written: true } | { readonly written: false; readonly newerVersion?: number; readonly failure?: string };

const resultOf = (answer: UpstashResponse<unknown>): unknown => {
  if (answer.error !== undefined) throw new Error(answer.error);
  return answer.result;
};

const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

class SlotWriter {
  constructor(
    private readonly admin: Requester,
    private readonly scope: string,
    private readonly version: number,
    private readonly value: string,
  ) {}

  /** One slot's copy, by the script's SHA, or its text where the node does not know it yet. */
  async write(slot: number): Promise<CopyOutcome> {
    const [copy, version] = liveLimitSlotKeys(this.scope, slot);
    const args = ['2', copy, version, String(this.version), this.value, String(VERSION_LIFETIME_MS)];
    try {
      let answer = await this.admin.request({ body: ['evalsha', WRITE_COPY_SHA, ...args] });
      if (answer.error?.startsWith('NOSCRIPT')) answer = await this.admin.request({ body: ['eval', WRITE_COPY, ...args] });
      const newer = Number(resultOf(answer));
      return newer === 0 ? { written: true } : { written: false, newerVersion: newer };
    } catch (failure) {
      return { written: false, failure: failureMessage(failure) };
    }
  }
}

/** Writes `tokens` (null: removes) into every slot's copy of the live limit at `scope`; rejects unless every copy was written. */
export async function writeEverySlot(admin: Requester, scope: string, tokens: number | null): Promise<void> {
  const deadline = Date.now() + LIVE_LIMIT_CHANGE_DEADLINE_MS;
  const sequence = liveLimitSequenceKey(scope);
  const version = Number(resultOf(await admin.request({ body: ['incr', sequence] })));
  const writer = new SlotWriter(admin, scope, version, tokens === null ? '' : String(tokens));
  let written = 0;
  let newest = 0;
  let firstFailure: string | undefined;
  let slot = 0;
  for (; slot < CLUSTER_SLOTS && Date.now() < deadline; slot += CHUNK_SLOTS) {
    const chunk = Array.from({ length: Math.min(CHUNK_SLOTS, CLUSTER_SLOTS - slot) }, (_, index) => writer.write(slot + index));
    for (const outcome of await Promise.all(chunk)) {
      if (outcome.written) written += 1;
      else if (outcome.newerVersion !== undefined) newest = Math.max(newest, outcome.newerVersion);
      else firstFailure ??= outcome.failure;
    }
    await nextTurn();
  }
  if (written === CLUSTER_SLOTS) return;
  // Best effort: this change has failed either way, and the next one to meet the newer version raises it.
  if (newest > version) await admin.request({ body: ['eval', RAISE_SEQUENCE, '1', sequence, String(newest)] }).then(resultOf).catch(() => undefined);
  const why = [
    newest > 0 ? `a newer change (version ${newest}) had written some` : undefined,
    firstFailure === undefined ? undefined : `Redis failed some (${firstFailure})`,
    slot < CLUSTER_SLOTS ? `the change's ${LIVE_LIMIT_CHANGE_DEADLINE_MS} ms deadline passed before it wrote the slots from ${slot} on` : undefined,
  ].filter((part) => part !== undefined);
  throw new LiveLimitWriteError(`wrote ${written} of the live limit's ${CLUSTER_SLOTS} copies (one per Cluster slot): ${why.join('; ')}; setting the limit again (or back to config) writes every copy`);
}
