// Finding 1: an admin who denied an address written in another valid spelling than the one a request
// carries (an IPv4-mapped address written out in full or in hex, `0:0:0:0:0:ffff:1.2.3.4` or
// `::ffff:102:304`, an IPv6 address with a dotted tail) got a member no request ever has, so the
// caller went on unhindered; the hex-mapped spelling even denied the whole `::/64` group (`::1`
// included) instead of the IPv4 caller. Every spelling of an address must deny the caller whose
// request carries that address in Node's own spelling (what `ctx.request.ip` holds).
import fc from 'fast-check';
import { SocketAddress } from 'node:net';
import type { Context } from 'koa';
import { parseDenyRequest, type DenyContext } from '../../../server/src/deny/deny-input';
import { ipMembers } from '../../../server/src/deny/deny-members';
import { compileIpIdentity } from '../../../server/src/http/identify';

const SUBNET = 64;
const context: DenyContext = { strategies: [{ identifierSource: 'ip' }], ipv6Subnet: SUBNET, hasherFor: () => undefined, allowed: () => false };
const requestMembers = (address: string): string[] => ipMembers(compileIpIdentity(SUBNET)({ request: { ip: address } } as unknown as Context));

const hex = (groups: readonly number[]): string[] => groups.map((group) => group.toString(16));
const dotted = (high: number, low: number): string => `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`;

/** Valid spellings of one IPv6 address given as its eight groups. */
function spellingsOf(groups: readonly number[]): string[] {
  const full = hex(groups);
  return [
    full.join(':'),
    full.map((group) => group.padStart(4, '0')).join(':').toUpperCase(),
    `${full.slice(0, 6).join(':')}:${dotted(groups[6], groups[7])}`,
    new SocketAddress({ address: full.join(':'), family: 'ipv6' }).address,
  ];
}

const group = fc.integer({ min: 0, max: 0xffff });
/** Any address, plus IPv4-mapped ones (`::ffff:a.b.c.d`), which a random draw would almost never give. */
const addresses = fc.oneof(fc.array(group, { minLength: 8, maxLength: 8 }), fc.tuple(group, group).map(([high, low]) => [0, 0, 0, 0, 0, 0xffff, high, low]));

describe('every spelling of an address denies the caller that sends it', () => {
  it('the member denied for any spelling of an IPv6 address is the member of a request from it', () => {
    fc.assert(
      fc.property(addresses, (groups) => {
        const canonical = new SocketAddress({ address: hex(groups).join(':'), family: 'ipv6' }).address;
        const [keyed] = requestMembers(canonical);
        for (const spelling of spellingsOf(groups)) expect(parseDenyRequest(context, { ip: spelling }).member).toBe(keyed);
      }),
    );
  });

  it('an IPv4-mapped address in any spelling denies the IPv4 caller, not the ::/64 group', () => {
    const spellings = ['::ffff:1.2.3.4', '::FFFF:1.2.3.4', '0:0:0:0:0:ffff:1.2.3.4', '::ffff:102:304', '0000:0000:0000:0000:0000:FFFF:0102:0304'];
    expect(spellings.map((ip) => parseDenyRequest(context, { ip }).member)).toEqual(spellings.map(() => '1.2.3.4'));
    expect(requestMembers('1.2.3.4')).toEqual(['1.2.3.4']);
    expect(requestMembers('::1')).toEqual(['0.0.0.0.0.0.0.0/64', '::1']);
  });
});
