// Issue 34 finding 5: `tiers.roles.__proto__` was accepted and silently dropped (zod's record skips
// the key JSON.parse keeps, and in an object literal `__proto__:` sets the prototype), so the tier
// never applied and the boot check of role types never saw it. Both spellings are refused, naming
// the field; `constructor` and `prototype`, which survive parsing, stay ordinary role types.
import { parseConfig } from '../../../server/src/config/parse-config';
import { compileConfig } from '../../../server/src/config/rules';
import { problemsOf } from '../../support/config-problems';

const withRoles = (roles: unknown) => ({
  url: 'http://127.0.0.1:8079',
  token: 't',
  strategy: [{ methods: ['GET'], path: '/api/x', identifierSource: 'user', limiter: { algorithm: 'fixed-window', tokens: 5, window: '10s' }, tiers: { roles } }],
});

describe('a role tier named __proto__', () => {
  it('is refused when the config comes from JSON, where it is an own key', () => {
    const roles = JSON.parse('{"__proto__": {"tokens": 1}, "partner": {"tokens": 9}}');
    expect(problemsOf(withRoles(roles))).toEqual(['strategy[0].tiers.roles.__proto__: "__proto__" is not a users-permissions role type: an object cannot keep it as a key']);
  });

  it('is refused when an object literal wrote it, where it set the prototype', () => {
    const roles = { __proto__: { authenticated: { tokens: 1 } }, partner: { tokens: 9 } };
    expect(problemsOf(withRoles(roles))).toEqual(['strategy[0].tiers.roles: must be a plain object keyed by role type: `__proto__:` in an object literal sets its prototype, it names no role']);
  });

  it('leaves constructor and prototype as ordinary role types, each with its tier', () => {
    const roles = JSON.parse('{"constructor": {"tokens": 2}, "prototype": {"tokens": 3}}');
    const [rule] = compileConfig(parseConfig(withRoles(roles))).rules;
    expect([...rule.tiers].map(([name, limit]) => [name, limit.tokens])).toEqual([
      ['roles.constructor', 2],
      ['roles.prototype', 3],
    ]);
  });
});
