// The admin API of the plugin, for the plugin object: admin routes, their controllers, the RBAC
// actions to register in bootstrap() and the usage service behind them.
export { adminRoutes, READ_ACTION, RESET_ACTION } from './routes';
export { adminControllers } from './controllers';
export { registerAdminPermissions, ADMIN_ACTIONS, type PermissionStrapi } from './permissions';
export { readUsage, resetCaller, DEFAULT_USAGE_LIMITS } from './usage-service';
export type { UsageLimits } from './usage-service';
export type { UsageReport, StrategyUsage, CallerCounter, AnalyticsReport, HourlyCount, ResetResult, FailOpenReport } from './usage-types';
export { adminStoreShares, closeAdminStore, onCallerReset, reportFailOpenFrom, type CallerResetListener } from './admin-store';
