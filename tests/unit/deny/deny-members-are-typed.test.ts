// The members an admin denies and the members a request is checked on are built by two paths (the
// admin's input, the request's identities): they must agree for every caller, or a deny would never
// match. Properties over arbitrary addresses and header values, through the real extractors and the
// real hasher; and members are typed, so a header value never denies an IP.
import fc from 'fast-check';
import type { Context } from 'koa';
import { compileAllowList } from '../../../server/src/http/allow-list';
import { compileHeaderPrivacy } from '../../../server/src/http/header-privacy';
import { HeaderHashKey } from '../../../server/src/http/header-hash-key';
import { compileIdentifier, compileIpIdentity } from '../../../server/src/http/identify';
import { parseDenyRequest, type DenyContext } from '../../../server/src/deny/deny-input';
import { identityMember, ipMembers, memberKind } from '../../../server/src/deny/deny-members';

const { hasherFor } = compileHeaderPrivacy('credentials', HeaderHashKey.fromSecret('a deployment secret of 32 or more characters'));
const strategies = [{ identifierSource: 'ip' }, { identifierSource: 'header.X-Caller' }, { identifierSource: 'header.x-api-key' }, { identifierSource: 'user' }];
const context: DenyContext = { strategies, ipv6Subnet: 64, hasherFor, allowed: compileAllowList([], hasherFor) };
const ipIdentity = compileIpIdentity(64);

const request = (ip: string, headers: Record<string, string> = {}) => ({ request: { ip, headers } }) as unknown as Context;
/** Every member a request is checked on for one header strategy: its identity's and its IP's. */
function requestMembers(source: string, ctx: Context): string[] {
  const ip = ipIdentity(ctx);
  const member = identityMember(compileIdentifier(source, hasherFor)(ctx, () => ip));
  return [...(member === undefined ? [] : [member]), ...ipMembers(ip)];
}

const headerValue = fc.string({ minLength: 1, maxLength: 200, unit: 'grapheme' }).filter((value) => !/[\u0000-\u001f\u007f]/.test(value) && value.trim() === value && value.length > 0);

describe('deny-list members', () => {
  it('an IPv4 caller is its bare address; an IPv6 caller its /64 as keyed and its raw address', () => {
    expect(requestMembers('ip', request('203.0.113.9'))).toEqual(['203.0.113.9']);
    expect(requestMembers('ip', request('::ffff:203.0.113.9'))).toEqual(['203.0.113.9']);
    expect(requestMembers('ip', request('2001:db8:0:7::1'))).toEqual(['2001.db8.0.7.0.0.0.0/64', '2001:db8:0:7::1']);
  });

  it('a header caller is header.<name>:<value as keyed>, hashed with the limiter\'s hasher for credential headers, and its IP besides', () => {
    expect(requestMembers('header.x-caller', request('203.0.113.9', { 'x-caller': 'a b' }))).toEqual(['header.x-caller:a%20b', '203.0.113.9']);
    expect(requestMembers('header.x-api-key', request('203.0.113.9', { 'x-api-key': 'secret' }))).toEqual([`header.x-api-key:${hasherFor('x-api-key')!('secret')}`, '203.0.113.9']);
    // Without the header, the caller is its IP (`ip=` in its keys): the IP's member, once.
    expect(requestMembers('header.x-caller', request('203.0.113.9'))).toEqual(['203.0.113.9']);
  });

  it('property: the member an admin denies with {ip} is one a request from that address is checked on', () => {
    fc.assert(
      fc.property(fc.oneof(fc.ipV4(), fc.ipV6()), (address) => {
        const { member } = parseDenyRequest(context, { ip: address });
        expect(requestMembers('ip', request(address))).toContain(member);
      }),
    );
  });

  it('property: the member an admin denies with {header, value} is the one a request sending that value is checked on, hashed or not', () => {
    fc.assert(
      fc.property(fc.constantFrom('x-caller', 'X-API-Key'), headerValue, (header, value) => {
        const { member } = parseDenyRequest(context, { header, value });
        expect(requestMembers(`header.${header}`, request('198.51.100.1', { [header.toLowerCase()]: value }))[0]).toBe(member);
      }),
    );
  });

  it('property: "Deny" beside a listed caller denies the member its requests are checked on (a header strategy\'s ip= fallback included)', () => {
    fc.assert(
      fc.property(fc.oneof(fc.ipV4(), fc.ipV6()), fc.option(headerValue, { nil: undefined }), (address, value) => {
        const ctx = request(address, value === undefined ? {} : { 'x-caller': value });
        const ip = ipIdentity(ctx);
        const identity = compileIdentifier('header.X-Caller', hasherFor)(ctx, () => ip);
        const { member } = parseDenyRequest(context, { strategy: 1, identifier: identity.id });
        expect(requestMembers('header.X-Caller', ctx)).toContain(member);
      }),
    );
  });

  it('a verified principal is user=<id> or token=<id>, listed as it is keyed', () => {
    expect(parseDenyRequest(context, { strategy: 3, identifier: 'user=42' }).member).toBe('user=42');
    expect(parseDenyRequest(context, { strategy: 3, identifier: 'token=7' }).member).toBe('token=7');
    expect(parseDenyRequest(context, { strategy: 3, identifier: '203.0.113.9' }).member).toBe('203.0.113.9');
  });

  it('members are typed: a header value that spells an IP denies the header value, never the IP', () => {
    const { member } = parseDenyRequest(context, { header: 'x-caller', value: '203.0.113.9' });
    expect(member).toBe('header.x-caller:203.0.113.9');
    expect(requestMembers('ip', request('203.0.113.9'))).not.toContain(member);
    expect([memberKind(member), memberKind('203.0.113.9'), memberKind('2001:db8::5'), memberKind('user=1'), memberKind('Mozilla/5.0')]).toEqual(['header', 'ip', 'ip', 'user', 'other']);
  });
});
