// The IP identity keeps the last address's identity for the next request from that address (a
// flood's address is parsed once). Whatever the order of requests, each must get exactly the
// identity a fresh parse of its own address gives.
import fc from 'fast-check';
import type { Context } from 'koa';
import { compileIpIdentity } from '../../../server/src/http/identify';

const request = (ip: string): Context => ({ request: { ip } }) as unknown as Context;

const address = fc.oneof(
  fc.ipV4(),
  fc.ipV6(),
  fc.ipV4().map((ipv4) => `::ffff:${ipv4}`),
  fc.tuple(fc.ipV4(), fc.integer({ min: 1, max: 65535 })).map(([ipv4, port]) => `${ipv4}:${port}`),
  fc.constantFrom('', 'unknown', '2001:DB8::1', '2001:db8:0::1', '[2001:db8::1]:443'),
);

it('gives every request, in any order and with repeats, the identity a fresh parse of its address gives', () => {
  fc.assert(
    fc.property(fc.array(address, { minLength: 1, maxLength: 8 }), fc.array(fc.nat(), { maxLength: 40 }), (addresses, picks) => {
      const shared = compileIpIdentity(64);
      for (const pick of picks) {
        const ip = addresses[pick % addresses.length];
        expect(shared(request(ip))).toEqual(compileIpIdentity(64)(request(ip)));
      }
    }),
  );
});

it('gives the same identity object again for the same address, and a new one for another', () => {
  const identity = compileIpIdentity(64);
  const first = identity(request('203.0.113.9'));
  expect([identity(request('203.0.113.9')) === first, identity(request('203.0.113.10')) === first, identity(request('203.0.113.9'))]).toEqual([
    true,
    false,
    { source: 'ip', id: '203.0.113.9', address: '203.0.113.9' },
  ]);
});
