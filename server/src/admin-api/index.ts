// The admin API of the plugin, for the plugin object: admin routes, their controllers and the RBAC
// actions to register in bootstrap().
export { adminRoutes, CONFIGURE_ACTION, READ_ACTION, RESET_ACTION } from './routes';
export { usageController, type UsageSource } from './controllers';
export { denyController, type DenySource } from './deny-controller';
export { registerAdminPermissions, ADMIN_ACTIONS, type PermissionStrapi } from './permissions';
