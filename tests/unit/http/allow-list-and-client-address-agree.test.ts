// The allow-list and the identity it checks agree on an address however it is written: an IPv6
// address in any spelling (letter case, `::` compression, leading zeros) and an IPv4 address behind
// `::ffff:` or with a proxy's `:port` are the same caller as their entry. Header entries admit only
// their own header's exact value.
import fc from 'fast-check';
import { compileAllowList } from '../../../server/src/http/allow-list';
import type { Identity } from '../../../server/src/http/identify';
import { clientAddress } from '../../../server/src/http/normalise-identifier';

const ipIdentity = (raw: string): Identity => ({ source: 'ip', id: 'unused', address: clientAddress(raw) });
const groups = fc.array(fc.integer({ min: 0, max: 0xffff }), { minLength: 8, maxLength: 8 });
const ipv4 = fc.array(fc.integer({ min: 0, max: 255 }), { minLength: 4, maxLength: 4 }).map((bytes) => bytes.join('.'));
const port = fc.integer({ min: 0, max: 65535 });

/** One IPv6 address written in many ways: hex case, leading zeros, and `::` over its longest zero run. */
function spellings(address: number[]): string[] {
  const full = address.map((group) => group.toString(16).padStart(4, '0')).join(':');
  const short = address.map((group) => group.toString(16)).join(':');
  const zeros = address.map((group, index) => (group === 0 ? index : -1)).filter((index) => index >= 0);
  const compressed = zeros.length > 0 ? `${address.slice(0, zeros[0]).map((g) => g.toString(16)).join(':')}::${address.slice(zeros[0] + 1).map((g) => g.toString(16)).join(':')}` : short;
  return [full, full.toUpperCase(), short, compressed];
}

it('admits an IPv6 caller in any spelling, with or without a proxy port, when any spelling is listed', () => {
  fc.assert(
    fc.property(groups, port, fc.nat(3), fc.nat(3), (address, portNumber, listedAs, sentAs) => {
      const written = spellings(address);
      const admitted = compileAllowList([written[listedAs]], () => undefined);
      expect(admitted(ipIdentity(written[sentAs]))).toBe(true);
      expect(admitted(ipIdentity(`[${written[sentAs]}]:${portNumber}`))).toBe(true);
      const other = [...address.slice(0, 7), (address[7] + 1) % 0x10000];
      expect(admitted(ipIdentity(spellings(other)[sentAs]))).toBe(false);
    }),
  );
});

it('admits an IPv4 caller as sent, IPv4-mapped or with a proxy port, and never the same text as a header value', () => {
  fc.assert(
    fc.property(ipv4, port, (address, portNumber) => {
      const admitted = compileAllowList([address], () => undefined);
      for (const sent of [address, `::ffff:${address}`, `${address}:${portNumber}`]) expect(admitted(ipIdentity(sent))).toBe(true);
      expect(admitted({ source: 'header', id: address, header: 'x-api-key', value: address })).toBe(false);
    }),
  );
});

it('admits a header caller only for its own header and exact value, and never an IP caller', () => {
  const admitted = compileAllowList(['header.X-Api-Key:10.0.0.1'], () => undefined);
  expect(admitted({ source: 'header', id: '10.0.0.1', header: 'x-api-key', value: '10.0.0.1' })).toBe(true);
  expect(admitted({ source: 'header', id: '10.0.0.1', header: 'x-tenant', value: '10.0.0.1' })).toBe(false);
  expect(admitted({ source: 'header', id: '10.0.0.10', header: 'x-api-key', value: '10.0.0.10' })).toBe(false);
  expect(admitted(ipIdentity('10.0.0.1'))).toBe(false);
  expect(admitted({ source: 'user', id: 'user=1' })).toBe(false);
});

it('leaves a value that is no address with a port as it is', () => {
  expect(['not-an-ip', '1.2.3.4:', '1.2.3.4:123456', '[::1]x', '[nope]:80', '::1'].map(clientAddress)).toEqual(['not-an-ip', '1.2.3.4:', '1.2.3.4:123456', '[::1]x', '[nope]:80', '::1']);
});
