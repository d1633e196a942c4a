// Registers the plugin's RBAC actions so roles can be given (or refused) the usage view, reset and
// configuration (live limits and the deny list).
export interface PermissionStrapi {
  admin?: { services: { permission: { actionProvider: { registerMany(actions: object[]): Promise<void> | void } } } };
}

export const ADMIN_ACTIONS = [
  { section: 'plugins', displayName: 'Read rate-limit usage', uid: 'read', pluginName: 'ratelimit' },
  { section: 'plugins', displayName: 'Reset a rate-limited caller', uid: 'reset', pluginName: 'ratelimit' },
  { section: 'plugins', displayName: 'Configure rate limits', uid: 'configure', pluginName: 'ratelimit' },
];

export async function registerAdminPermissions(strapi: PermissionStrapi): Promise<void> {
  // Plain Koa hosts and tests without the admin have no action provider: nothing to register.
  await strapi.admin?.services.permission.actionProvider.registerMany(ADMIN_ACTIONS);
}
