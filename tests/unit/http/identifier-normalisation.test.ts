// Identifiers inside store keys: one rule that no caller value can escape, and IPv6 grouped by subnet.
import { ipIdentifier, normaliseIdentifier } from '../../../server/src/http/normalise-identifier';

describe('normaliseIdentifier', () => {
  it('keeps ordinary values as they are', () => {
    for (const value of ['alice', 'user-42', 'a.b_c~d', 'x@example.com', '203.0.113.9']) expect(normaliseIdentifier(value)).toBe(value);
  });

  it.each([
    ['a:b', 'a%3Ab'],
    ['*', '%2A'],
    ['user?', 'user%3F'],
    ['[abc]', '%5Babc%5D'],
    ['back\\slash', 'back%5Cslash'],
    ['line\nbreak', 'line%0Abreak'],
    ['nul\u0000', 'nul%00'],
    ['ip=1.2.3.4', 'ip%3D1.2.3.4'],
    ['100%', '100%25'],
    ['space here', 'space%20here'],
    ['é', '%C3%A9'],
  ])('escapes %j as %s', (value, expected) => {
    expect(normaliseIdentifier(value)).toBe(expected);
  });

  it('never lets a hostile value add a key segment or a glob character', () => {
    const hostile = ['*', 'a:*', '\\*', '[a-z]*', ':::', 'events', 'x\r\n', '%2A'];
    for (const value of hostile) expect(normaliseIdentifier(value)).not.toMatch(/[:*?[\]\\\x00-\x1f=]/);
  });

  it('hashes over-long values into a form the escaping can never produce', () => {
    const long = 'x'.repeat(500);
    const id = normaliseIdentifier(long);
    expect(id).toMatch(/^%sha256%[0-9a-f]{64}$/);
    expect(normaliseIdentifier('y'.repeat(500))).not.toBe(id);
    expect(normaliseIdentifier(id.slice(0, 100))).not.toBe(id);
  });
});

describe('ipIdentifier', () => {
  it('keeps IPv4 and unwraps IPv4-mapped IPv6', () => {
    expect(ipIdentifier('203.0.113.9', 64)).toBe('203.0.113.9');
    expect(ipIdentifier('::ffff:203.0.113.9', 64)).toBe('203.0.113.9');
  });

  it('groups IPv6 addresses by /64, with no colon in the result', () => {
    const a = ipIdentifier('2001:db8:1:2:aaaa:bbbb:cccc:dddd', 64);
    expect(a).toBe('2001.db8.1.2.0.0.0.0/64');
    expect(ipIdentifier('2001:db8:1:2::1', 64)).toBe(a);
    expect(ipIdentifier('2001:db8:1:3::1', 64)).not.toBe(a);
  });

  it('honours other subnet sizes', () => {
    expect(ipIdentifier('2001:db8:1:2::1', 48)).toBe('2001.db8.1.0.0.0.0.0/48');
    expect(ipIdentifier('2001:db8::1', 128)).toBe('2001.db8.0.0.0.0.0.1/128');
    // One address, however it is written, is one caller.
    expect(ipIdentifier('2001:DB8:0:0::1', 128)).toBe(ipIdentifier('2001:db8::1', 128));
  });
});
