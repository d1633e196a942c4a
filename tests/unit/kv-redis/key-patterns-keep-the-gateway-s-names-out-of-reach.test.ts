// Trust round 4, finding 1 (the integration test drives it through Redis): the engine's users may
// write every key name but the gateway's own, and a REST user's write pattern that could match one
// of those is refused. Checked here with the glob the memory engine shares with Redis
// (tests/integration/kv-redis/glob-agrees-with-redis-server.test.ts proves them alike): the patterns
// cover exactly the other names, and a pattern that matches some private name is always found to
// reach the prefix.
import fc from 'fast-check';
import { globMatches } from '../../../mock/kv-rest/memory/glob';
import { globReachesPrefix, OUTSIDE_PRIVATE_KEYS, PRIVATE_KEY_PREFIX } from '../../../mock/kv-rest/redis/private-keys';

/** Key names near the prefix: its beginnings, with its own or other characters after them. */
const nearPrefix = fc
  .tuple(fc.nat(PRIVATE_KEY_PREFIX.length), fc.string({ unit: fc.constantFrom('k', 'v', '-', 'r', ':', 'x', '*', '\\', '['), maxLength: 6 }))
  .map(([length, rest]) => PRIVATE_KEY_PREFIX.slice(0, length) + rest);
const patternPiece = fc.constantFrom('*', '?', '[^k]', '[a-z]', '[k-v]', '\\-', '\\*', 'k', 'v', '-', 'rest', 'gateway', ':', '[-:]', '[', '\\');
const pattern = fc.array(patternPiece, { maxLength: 8 }).map((pieces) => pieces.join(''));

describe('the key patterns keep the gateway\'s own names out of reach', () => {
  it('OUTSIDE_PRIVATE_KEYS matches a key name exactly when it does not start with the private prefix', () => {
    fc.assert(
      fc.property(fc.oneof(nearPrefix, fc.string()), (key) => {
        expect(OUTSIDE_PRIVATE_KEYS.some((glob) => globMatches(glob, key))).toBe(!key.startsWith(PRIVATE_KEY_PREFIX));
      }),
      { numRuns: 2000 },
    );
  });

  it('a pattern that matches some private key name reaches the prefix', () => {
    fc.assert(
      fc.property(pattern, fc.string({ maxLength: 4 }), (glob, rest) => {
        if (globMatches(glob, PRIVATE_KEY_PREFIX + rest)) expect({ glob, reaches: globReachesPrefix(glob, PRIVATE_KEY_PREFIX) }).toEqual({ glob, reaches: true });
      }),
      { numRuns: 5000 },
    );
  });

  it('patterns that cannot match a private name are left alone', () => {
    expect(['app:*', 'kv-rest-gatewaz*', '[^k]*', 'kv-rest-gateway', 'k[^v]*'].map((glob) => globReachesPrefix(glob, PRIVATE_KEY_PREFIX))).toEqual([false, false, false, false, false]);
    expect(['*', 'kv*', 'k?-rest*', '[j-l]v-rest-gateway:x', 'kv-rest-gateway:'].map((glob) => globReachesPrefix(glob, PRIVATE_KEY_PREFIX))).toEqual([true, true, true, true, true]);
  });
});
