// The admin API's JSON as the page sees it: the types are the server's own (an import-free file),
// so the page and the API cannot drift apart.
export type {
  AnalyticsReport,
  CallerCounter,
  ConfiguredReport,
  ConfiguredStrategy,
  DeniedCaller,
  DenyListReport,
  DenyResult,
  HourlyCount,
  LiveLimitResult,
  ResetResult,
  StrategyUsage,
  UsageReport,
} from '../../server/src/admin-api/usage-types';

export const USAGE_PATH = '/ratelimit/usage';
export const RESET_PATH = '/ratelimit/reset';
/** A strategy's live limit: PUT `{tokens}` sets it, DELETE goes back to the config. */
export const liveLimitPath = (strategyIndex: number): string => `/ratelimit/strategies/${strategyIndex}/limit`;
export const DENY_PATH = '/ratelimit/deny';
export const LIFT_PATH = '/ratelimit/deny/lift';
