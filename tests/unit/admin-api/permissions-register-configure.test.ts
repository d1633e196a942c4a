// The plugin registers three RBAC actions (read, reset, configure), and each admin route demands
// exactly one: changing a live limit or the deny list needs `plugin::ratelimit.configure`, which reading
// does not give.
import { adminRoutes, registerAdminPermissions } from '../../../server/src/admin-api';

it('registers read, reset and configure with the admin\'s action provider', async () => {
  const registered: object[] = [];
  await registerAdminPermissions({ admin: { services: { permission: { actionProvider: { registerMany: (actions) => void registered.push(...actions) } } } } });
  expect(registered).toEqual([
    { section: 'plugins', displayName: 'Read rate-limit usage', uid: 'read', pluginName: 'ratelimit' },
    { section: 'plugins', displayName: 'Reset a rate-limited caller', uid: 'reset', pluginName: 'ratelimit' },
    { section: 'plugins', displayName: 'Configure rate limits', uid: 'configure', pluginName: 'ratelimit' },
  ]);
});

it('guards each admin route with one action: live limits and deny-list changes with configure, the list with read', () => {
  expect(adminRoutes.map(({ method, path, handler, config }) => [method, path, handler, config.policies[0].config.actions])).toEqual([
    ['GET', '/usage', 'usage.read', ['plugin::ratelimit.read']],
    ['POST', '/reset', 'usage.reset', ['plugin::ratelimit.reset']],
    ['PUT', '/strategies/:index/limit', 'usage.setLimit', ['plugin::ratelimit.configure']],
    ['DELETE', '/strategies/:index/limit', 'usage.clearLimit', ['plugin::ratelimit.configure']],
    ['GET', '/deny', 'deny.list', ['plugin::ratelimit.read']],
    ['POST', '/deny', 'deny.deny', ['plugin::ratelimit.configure']],
    ['POST', '/deny/lift', 'deny.lift', ['plugin::ratelimit.configure']],
  ]);
});
