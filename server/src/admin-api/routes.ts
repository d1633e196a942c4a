// The admin routes (type admin, served at /ratelimit/...), each guarded by its RBAC action.
export const READ_ACTION = 'plugin::ratelimit.read';
export const RESET_ACTION = 'plugin::ratelimit.reset';
export const CONFIGURE_ACTION = 'plugin::ratelimit.configure';

const requires = (action: string) => ({ policies: [{ name: 'admin::hasPermissions', config: { actions: [action] } }] });

export const adminRoutes = [
  { method: 'GET', path: '/usage', handler: 'usage.read', config: requires(READ_ACTION) },
  { method: 'POST', path: '/reset', handler: 'usage.reset', config: requires(RESET_ACTION) },
  { method: 'PUT', path: '/strategies/:index/limit', handler: 'usage.setLimit', config: requires(CONFIGURE_ACTION) },
  { method: 'DELETE', path: '/strategies/:index/limit', handler: 'usage.clearLimit', config: requires(CONFIGURE_ACTION) },
  { method: 'GET', path: '/deny', handler: 'deny.list', config: requires(READ_ACTION) },
  { method: 'POST', path: '/deny', handler: 'deny.deny', config: requires(CONFIGURE_ACTION) },
  { method: 'POST', path: '/deny/lift', handler: 'deny.lift', config: requires(CONFIGURE_ACTION) },
];
