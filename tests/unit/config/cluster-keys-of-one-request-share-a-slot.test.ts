// Issue 26, point 3: on a Redis Cluster a script may only touch keys of one slot. For any caller
// (any header value, normalised as the plugin normalises it) and any strategy shape, the keys one
// limit script receives (its counters and the live limit it reads) share one slot, which is the
// caller's; a route or prefix cannot move them apart; callers spread over the slots; the deny list's
// three keys share a slot; and keys read back to the same caller as on one node.
import fc from 'fast-check';
import type { Ratelimit } from '@upstash/ratelimit';
import { CLUSTER_SLOTS, slotOf, slotTags } from '../../../server/src/config/cluster-slots';
import { parseKey, StrategyKeys } from '../../../server/src/config/keys';
import { normaliseIdentifier } from '../../../server/src/http/normalise-identifier';
import { contextPerSlot, liveLimitKey, liveLimitKeys } from '../../../server/src/limiter/live-limit-scope';
import { denyListKeys } from '../../../server/src/deny/deny-members';
import { parseConfig } from '../../../server/src/config/parse-config';

const ALGORITHMS = ['fixed-window', 'sliding-window', 'token-bucket'] as const;
const strategyShape = fc.record({
  route: fc.string({ unit: fc.constantFrom(...'/api:{}%*ab'), minLength: 1, maxLength: 16 }).map((route) => `/${route}`),
  algorithm: fc.constantFrom(...ALGORITHMS),
  windowMs: fc.integer({ min: 1, max: 86_400_000 }),
  methods: fc.constantFrom(['GET'], ['ALL'], ['GET', 'POST']),
});

describe('the keys of one request share a slot on a Redis Cluster', () => {
  it('every slot has a tag whose slot it is', () => {
    const tags = slotTags();
    expect(tags).toHaveLength(CLUSTER_SLOTS);
    expect(tags.every((tag, slot) => slotOf(tag) === slot)).toBe(true);
  });

  it('the keys of one limit script (counters and the live limit it reads) share the caller\'s slot, whatever the route, method or caller', () => {
    fc.assert(
      fc.property(strategyShape, fc.string({ maxLength: 40 }), fc.integer({ min: 0, max: 2 ** 41 }), (shape, value, now) => {
        const keys = new StrategyKeys('@cms', shape, 'slotted');
        const identifier = normaliseIdentifier(value);
        const method = shape.methods[0] === 'ALL' ? 'ALL' : shape.methods[0];
        const counters = keys.counterKeys(method, identifier, now);
        const contextOf = contextPerSlot({ ctx: { prefix: keys.liveLimitScope() } } as unknown as Ratelimit, keys.liveLimitScope());
        const live = liveLimitKey(contextOf(counters[0]).prefix!);
        const slots = new Set([...counters, live].map(slotOf));
        expect([...slots]).toEqual([slotOf(identifier === '' ? '%' : identifier)]);
        expect(liveLimitKeys(keys.liveLimitScope(), 'slotted')).toContain(live);
        // Read back as the same caller, as on one node.
        expect(parseKey('@cms', counters[0])?.identifier).toBe(identifier);
      }),
    );
  });

  it('callers spread over the slots: 2,000 IPs land in more than 1,800 slots', () => {
    const keys = new StrategyKeys('@cms', { route: '/api/*', algorithm: 'sliding-window', windowMs: 60_000, methods: ['GET'] }, 'slotted');
    const slots = new Set(Array.from({ length: 2000 }, (_, index) => slotOf(keys.storeKey('GET', `10.0.${index >> 8}.${index & 255}`))));
    expect(slots.size).toBeGreaterThan(1800);
  });

  it('one node keeps the documented layout; the deny list\'s keys share one slot on a cluster', () => {
    const shape = { route: '/api/{x}', algorithm: 'fixed-window', windowMs: 60_000, methods: ['GET'] } as const;
    expect(new StrategyKeys('@cms', shape).storeKey('GET', '1.2.3.4')).toBe('@cms:GET:/api/%7Bx%7D:1.2.3.4:fixed-window.1m');
    expect(new StrategyKeys('@cms', shape, 'slotted').storeKey('GET', '1.2.3.4')).toBe('@cms:GET:/api/%7Bx%7D:{1.2.3.4}:fixed-window.1m');
    const deny = denyListKeys('@cms', 'slotted');
    expect(new Set([deny.all, deny.until, deny.meta].map(slotOf)).size).toBe(1);
    expect(denyListKeys('@cms')).toEqual({ all: '@cms:denyList:all', until: '@cms:denyList:until', meta: '@cms:denyList:meta' });
  });

  it('a prefix with a brace is refused, naming the field', () => {
    expect(() => parseConfig({ prefix: 'a{b}' })).toThrow('prefix: must not contain { or } (Redis Cluster hash-tag braces)');
  });
});
