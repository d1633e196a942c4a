// What the admin API accepts as a caller to deny, validated into the member the request path
// checks (deny-members.ts), or a sentence for a 400: `{ip}` (an IPv4 or IPv6 address; IPv6 is
// denied as the group it is keyed by), `{header, value}` (a header some strategy identifies callers
// by, its value hashed with the limiter's own hasher when that header's values are hashed), or
// `{strategy, identifier}` (a caller as the usage report lists it on that strategy: the "Deny"
// beside "Reset"); each with an optional `duration` from 1s to 365d. An allow-listed caller cannot be
// denied (the allow-list admits it before any check). Input only ever becomes a set member.
import { isIP } from 'node:net';
import { isStrategyIndex, strategyIndexMessage } from '../admin-api/strategy-index';
import { MAX_DENY_MS, MIN_DENY_MS } from '../config/bounds';
import { parseDuration } from '../config/duration';
import type { AllowList } from '../http/allow-list';
import type { HeaderValueHasher } from '../http/header-privacy';
import type { Identity } from '../http/identify';
import { ipIdentifier, MAX_IDENTIFIER_LENGTH, normaliseIdentifier } from '../http/normalise-identifier';
import { USER_SOURCE } from '../http/verified-caller';
import { headerMember, MAX_LIFTABLE_MEMBER_LENGTH } from './deny-members';

const MAX_VALUE_LENGTH = 1024;
const CONTROL_CHARACTER = /[\u0000-\u001f\u007f]/;
/** What identifiers are made of (normalise-identifier.ts) plus the `=` and `%` of their prefixes and escapes. */
const IDENTIFIER = /^[A-Za-z0-9._~!$&'()+,;@/%=-]+$/;

export interface DenyTarget {
  readonly member: string;
  /** How long the deny lasts, ms; undefined: until lifted. */
  readonly durationMs: number | undefined;
}

/** What validation needs of the limiter: its config, the header hasher and the allow-list it compiled. */
export interface DenyContext {
  readonly strategies: ReadonlyArray<{ readonly identifierSource: string }>;
  readonly ipv6Subnet: number;
  readonly hasherFor: (header: string) => HeaderValueHasher;
  readonly allowed: AllowList;
}

export class DenyInputError extends Error {
  override readonly name = 'DenyInputError';
}

const fail = (message: string): never => {
  throw new DenyInputError(message);
};

function text(value: unknown, field: string, maxLength: number): string {
  if (typeof value !== 'string' || value.length === 0) return fail(`${field} must be a non-empty string`);
  if (value.length > maxLength) return fail(`${field} must be at most ${maxLength} characters`);
  if (CONTROL_CHARACTER.test(value)) return fail(`${field} must not contain control characters`);
  return value;
}

function duration(value: unknown): number | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  const parsed = typeof value === 'string' && value.length <= 20 ? parseDuration(value) : undefined;
  if (!parsed || parsed.milliseconds < MIN_DENY_MS || parsed.milliseconds > MAX_DENY_MS) return fail('duration must be <number><unit> with unit s, m, h or d (for example 1h or 1d), from 1s to 365d');
  return parsed.milliseconds;
}

/** The header names strategies identify callers by, lower case. */
const headersOf = (context: DenyContext): Set<string> =>
  new Set(context.strategies.filter((strategy) => strategy.identifierSource.startsWith('header.')).map((strategy) => strategy.identifierSource.slice('header.'.length).toLowerCase()));

function ipTarget(context: DenyContext, value: unknown): { member: string; identity: Identity } {
  const address = text(value, 'ip', 64);
  if (isIP(address) === 0) return fail('ip must be an IPv4 or IPv6 address');
  const id = ipIdentifier(address, context.ipv6Subnet);
  return { member: id, identity: { source: 'ip', id, address } };
}

function headerTarget(context: DenyContext, headerValue: unknown, value: unknown): { member: string; identity: Identity } {
  const header = text(headerValue, 'header', 100).toLowerCase();
  const known = headersOf(context);
  if (!known.has(header)) return fail(`header must be one that a strategy identifies callers by (${[...known].join(', ') || 'none is configured'})`);
  const raw = text(value, 'value', MAX_VALUE_LENGTH);
  const hashed = context.hasherFor(header)?.(raw);
  const id = hashed ?? normaliseIdentifier(raw);
  return { member: headerMember(header, id), identity: { source: 'header', id, header, value: hashed ?? raw } };
}

/** A caller as listed on a strategy: its member follows how the strategy identifies callers. */
function listedTarget(context: DenyContext, strategyValue: unknown, identifierValue: unknown): { member: string; identity: Identity } {
  const count = context.strategies.length;
  if (!isStrategyIndex(strategyValue, count)) return fail(strategyIndexMessage(count));
  const identifier = text(identifierValue, 'identifier', MAX_IDENTIFIER_LENGTH + 10);
  if (!IDENTIFIER.test(identifier)) return fail('identifier must be a caller identifier as listed by GET /ratelimit/usage');
  const source = context.strategies[strategyValue].identifierSource;
  // A header strategy's caller without the header, and a `user` strategy's caller without credentials, are IPs.
  const ip = identifier.startsWith('ip=') ? identifier.slice(3) : identifier;
  if (source.startsWith('header.') && !identifier.startsWith('ip=')) {
    const header = source.slice('header.'.length).toLowerCase();
    return { member: headerMember(header, identifier), identity: { source: 'header', id: identifier, header, value: identifier } };
  }
  if (source === USER_SOURCE && /^(user|token)=/.test(identifier)) return { member: identifier, identity: { source: 'user', id: identifier } };
  return { member: ip, identity: { source: 'ip', id: ip, address: ip } };
}

/** The member and duration of an admin's deny request, or a DenyInputError saying what is wrong. */
export function parseDenyRequest(context: DenyContext, body: unknown): DenyTarget {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return fail('the body must be a JSON object');
  const input = body as Record<string, unknown>;
  const forms = [input.ip !== undefined, input.header !== undefined || input.value !== undefined, input.strategy !== undefined || input.identifier !== undefined].filter(Boolean).length;
  if (forms !== 1) return fail('give exactly one of {ip}, {header, value} or {strategy, identifier}, and optionally a duration');
  const target = input.ip !== undefined ? ipTarget(context, input.ip) : input.strategy !== undefined || input.identifier !== undefined ? listedTarget(context, input.strategy, input.identifier) : headerTarget(context, input.header, input.value);
  const durationMs = duration(input.duration);
  if (context.allowed(target.identity)) return fail(`${target.member} is on the allow-list, which admits it before any check: remove it from allowList first`);
  return { member: target.member, durationMs };
}

/**
 * The member of a lift request, or a DenyInputError: any member the listing shows, console-added
 * ones included, whatever characters they hold (a lift only ever names a member to remove).
 */
export function parseLiftRequest(body: unknown): string {
  const member = typeof body === 'object' && body !== null ? (body as { member?: unknown }).member : undefined;
  if (typeof member !== 'string' || member.length === 0) return fail('member must be a non-empty string');
  if (member.length > MAX_LIFTABLE_MEMBER_LENGTH) return fail(`member must be at most ${MAX_LIFTABLE_MEMBER_LENGTH} characters`);
  return member;
}
