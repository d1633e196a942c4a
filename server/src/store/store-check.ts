// The boot check of the store: one round trip that does what requests will do, on keys of the
// plugin's own scheme, so a store that cannot serve them is one clear line at boot rather than a
// failure per request. It runs the scripts a request runs, in their key groups: the first strategy's
// counter keys for a probe caller (written to, with a PEXPIRE that changes nothing: no such key
// exists) beside its live-limit key (read), and, with the deny list on, the deny list's keys (read).
// So it catches a wrong REST token or a Read Only one (which passes PING but cannot run scripts), a
// Redis user whose ACL does not cover the prefix (NOPERM), a read-only replica (READONLY), a single
// node of a Redis Cluster named by a redis:// url (MOVED), and keys of one script in different
// cluster slots (CROSSSLOT). A transport failure (no answer, refused connection, not a store) is
// `unreachable`; an answer that refuses is `refused`, with what to do about it: different mistakes,
// one of configuration and one of operations, logged differently (strapi/boot-report.ts). A Redis
// or key-value store certificate that Node refused (tls-trust.ts) is `tls`: a mistake of configuration,
// with what to do.
import type { Redis } from '@upstash/redis';
import type { CompiledConfig } from '../config/rules';
import type { StoreAddress } from '../../../shared/store-address';
import { denyListKeys } from '../deny/deny-members';
import { failureMessage } from '../failure-message';
import { liveLimitKeyFor } from '../limiter/live-limit-scope';
import { RedisSetupError } from './redis/redis-connection-failures';
import { RedisCertificateError } from './redis/redis-tls';
import { StoreCertificateError, StoreUnavailableError } from './rest/rest-connections';
import { storeNoun } from './store-in-use';

export type StoreCheck =
  | { readonly ok: true }
  | { readonly ok: false; readonly problem: 'unreachable'; readonly reason: string }
  | { readonly ok: false; readonly problem: 'refused' | 'tls'; readonly reason: string; readonly advice: string };

/**
 * The probe caller: `%` followed by anything but two upper-case hex digits is an identifier that
 * normalisation (http/normalise-identifier.ts) never produces, so no real caller's keys are touched.
 */
export const PROBE_IDENTIFIER = '%boot-check';

/** PEXPIREs the first ARGV[1] keys (none exists: nothing changes, but it is a write) and reads the rest. */
const PROBE_SCRIPT = "for i = 1, #KEYS do if i <= tonumber(ARGV[1]) then redis.call('PEXPIRE', KEYS[i], 1) else redis.call('EXISTS', KEYS[i]) end end return 1";

interface ProbeGroup {
  readonly keys: readonly string[];
  /** How many of the keys, from the first, are written to. */
  readonly written: number;
}

/** The key groups of one request's scripts, for the probe caller at `now`. */
export function probeGroups(config: Pick<CompiledConfig, 'prefix' | 'rules' | 'denyList' | 'placement'>, now: number): ProbeGroup[] {
  const [rule] = config.rules;
  const counters = rule ? rule.keys.counterKeys(rule.methods[0], PROBE_IDENTIFIER, now) : [`${config.prefix}:{${PROBE_IDENTIFIER}}`];
  const live = rule ? [liveLimitKeyFor(rule.keys.liveLimitScope(), rule.keys.placement, counters[0])] : [];
  const groups: ProbeGroup[] = [{ keys: [...counters, ...live], written: counters.length }];
  if (config.denyList) {
    const deny = denyListKeys(config.prefix, config.placement);
    groups.push({ keys: [deny.all, deny.until, deny.meta], written: 0 });
  }
  return groups;
}

const certificateAdvice = (config: Pick<CompiledConfig, 'storeAddress'>): string =>
  `give the CA that signed ${storeNoun(config)}'s certificate as ?tlsCa=/path/ca.pem in the url (or start Node with NODE_EXTRA_CA_CERTS), and check that the url names a host the certificate is for`;

const ONE_CLUSTER_NODE = 'the url names one node of a Redis Cluster: use redis+cluster://host:port,host:port';

/** What to do about a refusal: Redis's own words for a topology problem first, then the credentials of the transport. */
function adviceFor(reason: string, address: StoreAddress | undefined): string {
  const onRedis = address?.kind === 'redis';
  if (/^(MOVED|ASK) /.test(reason)) return ONE_CLUSTER_NODE;
  // Keys in different slots: the one-node layout on a cluster, unless the url already says cluster.
  if (reason.startsWith('CROSSSLOT')) return onRedis && address.topology === 'cluster' ? "one request's keys fall in different slots of the Redis Cluster" : ONE_CLUSTER_NODE;
  if (reason.startsWith('CLUSTERDOWN')) return 'the Redis Cluster does not serve every slot';
  if (reason.startsWith('READONLY')) return 'the url reaches a read-only replica: name the primary, or its sentinels with redis+sentinel://';
  if (!onRedis) return "check the plugin config's url and token";
  if (reason.startsWith('NOPERM')) return "the Redis user may not run the plugin's scripts on its keys: its ACL needs +eval +evalsha and the key pattern of the prefix";
  if (/^(WRONGPASS|NOAUTH)/.test(reason)) return "check the user and password in the plugin config's url";
  return "check the plugin config's url and the Redis user's ACL";
}

export async function checkStore(redis: Redis, config: Pick<CompiledConfig, 'prefix' | 'rules' | 'denyList' | 'placement' | 'storeAddress'>, now = Date.now()): Promise<StoreCheck> {
  try {
    await Promise.all(probeGroups(config, now).map(({ keys, written }) => redis.eval(PROBE_SCRIPT, [...keys], [written])));
    return { ok: true };
  } catch (failure) {
    const reason = failureMessage(failure);
    const certificate = failure instanceof StoreCertificateError ? failure : failure instanceof Error && failure.cause instanceof RedisCertificateError ? failure.cause : undefined;
    if (certificate !== undefined) return { ok: false, problem: 'tls', reason: certificate.message, advice: certificateAdvice(config) };
    if (failure instanceof Error && failure.cause instanceof RedisSetupError) return { ok: false, problem: 'refused', reason, advice: failure.cause.advice };
    if (failure instanceof StoreUnavailableError) return { ok: false, problem: 'unreachable', reason };
    return { ok: false, problem: 'refused', reason, advice: adviceFor(reason, config.storeAddress) };
  }
}
