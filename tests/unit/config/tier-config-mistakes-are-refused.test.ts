// Issue 30: what the schema refuses in a strategy's tiers, each problem naming its field: tiers on a
// strategy that does not identify callers by their verified credential, a refill on a window
// algorithm, the `public` role (that is `anonymous`), a role type users-permissions cannot have, a
// bucket the store cannot keep; and a config with tiers compiles into one limit per tier in order.
import { parseConfig } from '../../../server/src/config/parse-config';
import { compileConfig } from '../../../server/src/config/rules';
import { problemsOf } from '../../support/config-problems';

const base = { url: 'http://127.0.0.1:8079', token: 't' };
const tiered = (tiers: unknown, overrides: Record<string, unknown> = {}, limiter: Record<string, unknown> = {}) => ({
  ...base,
  strategy: [{ methods: ['GET'], path: '/api/x', identifierSource: 'user', limiter: { algorithm: 'fixed-window', tokens: 5, window: '10s', ...limiter }, tiers, ...overrides }],
});


describe('tier config mistakes are refused', () => {
  it('refuses tiers on an ip or header strategy, naming the field', () => {
    expect(problemsOf(tiered({ anonymous: { tokens: 1 } }, { identifierSource: 'ip' }))).toEqual(['strategy[0].tiers: need identifierSource "user" (the tier is read from the verified credential), not "ip"']);
  });

  it('refuses a refill on a window algorithm, a misspelt tier or token type, the public role and a role type users-permissions cannot have', () => {
    expect(problemsOf(tiered({ anonymous: { tokens: 1, refillRate: 1 } }))).toEqual(['strategy[0].tiers.anonymous.refillRate: applies to token-bucket only: remove it ("fixed-window" refills nothing)']);
    expect(problemsOf(tiered({ anonymus: { tokens: 1 } }))).toEqual([expect.stringMatching(/^strategy\[0\]\.tiers: .*anonymus/)]);
    expect(problemsOf(tiered({ apiTokens: { readonly: { tokens: 1 } } }))).toEqual([expect.stringMatching(/^strategy\[0\]\.tiers\.apiTokens: .*readonly/)]);
    expect(problemsOf(tiered({ roles: { public: { tokens: 1 } } }))).toEqual(['strategy[0].tiers.roles.public: "public" is the role of callers without a credential: write its limit as tiers.anonymous']);
    expect(problemsOf(tiered({ roles: { 'my partner': { tokens: 1 } } }))).toEqual([expect.stringContaining('"my partner" is not a users-permissions role type')]);
    expect(problemsOf(tiered({ roles: { partner: { tokens: 0 } } }))).toEqual(['strategy[0].tiers.roles.partner.tokens: must be greater than 0 (requests allowed per window for this tier)']);
  });

  it("refuses a tier's bucket that the store cannot keep exactly, as for the strategy's own", () => {
    expect(problemsOf(tiered({ roles: { partner: { tokens: 1_000_000_000, refillRate: 1 } } }, {}, { algorithm: 'token-bucket', window: '3650d' }))).toEqual([
      expect.stringMatching(/^strategy\[0\]\.tiers\.roles\.partner: an emptied bucket of 1000000000 tokens refilled 1 per 3650d takes/),
    ]);
  });

  it("compiles one limit per tier in the documented order, each with the strategy's algorithm and window", () => {
    const [rule] = compileConfig(parseConfig(tiered({ anonymous: { tokens: 2 }, roles: { partner: { tokens: 9, refillRate: 3 } }, apiTokens: { custom: { tokens: 4 } } }, {}, { algorithm: 'token-bucket' }))).rules;
    expect([...rule.tiers].map(([name, limit]) => [name, limit.algorithm, limit.tokens, limit.refillRate, limit.window.milliseconds])).toEqual([
      ['apiTokens.custom', 'token-bucket', 4, 4, 10_000],
      ['roles.partner', 'token-bucket', 9, 3, 10_000],
      ['anonymous', 'token-bucket', 2, 2, 10_000],
    ]);
  });
});
