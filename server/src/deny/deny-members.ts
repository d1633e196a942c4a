// The deny list's keys and members. The list itself is the SET `<prefix>:denyList:all`, the key and
// member semantics of @upstash/ratelimit's deny list (so the hosted console and this plugin read and
// write one list); beside it the plugin keeps, per member, when it expires (ZSET `:until`, score in
// ms, timed entries only) and who added it when (HASH `:meta`, JSON). Members are typed, so one kind
// of caller never denies another: an IP is its identifier as keyed (IPv4 bare, IPv6 grouped by
// `ipv6Subnet`, `2001.db8.0.0.0.0.0.0/64`), a request also matches its raw IPv6 address (what the
// library and the console hold), a header value is `header.<name>:<identifier>` (its HMAC when the
// header's values are hashed, else the normalised value: the allow-list's spelling), a verified
// principal `user=<id>` or `token=<id>`. None of the three keys is a counter key (parseKey needs 4-5 parts).
import { isIPv6 } from 'node:net';
import type { Identity, IpIdentity } from '../http/identify';
import type { KeyPlacement } from '../config/key-placement';

export interface DenyListKeys {
  /** SET of denied members, the library's and the console's key. */
  readonly all: string;
  /** ZSET member -> expiry (ms epoch), for timed entries. */
  readonly until: string;
  /** HASH member -> `{"by","at","until"}` JSON, for the page. */
  readonly meta: string;
}

/**
 * The longest member the admin API lifts (and lists): 16 KiB, Node's default limit on a request's
 * whole head, so any member a request could match, console-written user agents included.
 */
export const MAX_LIFTABLE_MEMBER_LENGTH = 16 * 1024;

/** The list's keys; on a Redis Cluster they share one hash tag, so one script reads all three (config/key-placement.ts). */
export function denyListKeys(prefix: string, placement: KeyPlacement = 'flat'): DenyListKeys {
  const stem = placement === 'flat' ? `${prefix}:denyList` : `{${prefix}:denyList}`;
  return { all: `${stem}:all`, until: `${stem}:until`, meta: `${stem}:meta` };
}

/** The member of a header's identifier (hashed or normalised, as keyed). */
export const headerMember = (header: string, identifier: string): string => `header.${header}:${identifier}`;

/**
 * The member of a request's identity on one strategy, or undefined for an IP identity (a header
 * strategy's `ip=` fallback included), whose members the request adds once (`ipMembers`).
 */
export function identityMember(identity: Identity): string | undefined {
  if (identity.source === 'header') return headerMember(identity.header, identity.id);
  return identity.source === 'user' ? identity.id : undefined;
}

/**
 * The members of a request's IP: its identifier as keyed and, for IPv6 grouped by its prefix, the
 * raw address a console entry names (an IPv4-mapped address is its IPv4 address, nothing more).
 * Runs on every limited request: the address is parsed only when the identifier has a prefix length.
 */
export function ipMembers(ip: IpIdentity): string[] {
  return ip.id.includes('/') && isIPv6(ip.address) ? [ip.id, ip.address] : [ip.id];
}

/** What kind of caller a member names, for the page (`other`: a console entry of no plugin form, such as a user agent). */
export function memberKind(member: string): 'ip' | 'header' | 'user' | 'other' {
  if (member.startsWith('header.')) return 'header';
  if (member.startsWith('user=') || member.startsWith('token=')) return 'user';
  return /^[0-9a-fA-F.:]+(\/\d{1,3})?$/.test(member) ? 'ip' : 'other';
}
