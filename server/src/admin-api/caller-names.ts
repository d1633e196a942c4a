// Names beside the verified callers of the usage report: the keys hold only `user=<id>` and
// `token=<id>` (a name could change, and the store may be read with a token assumed public), so the
// report gives the username or the API token's name when it is read, by whatever knows them (in
// Strapi, its database: strapi/caller-names.ts). Only to an admin who may read them, as Strapi's own
// admin panel would show them: users with the Content Manager's read action on the users-permissions
// user (its `username` field), API tokens with `admin::api-tokens.read`; to anyone else the ids
// stay bare. Bounded: one batched lookup per kind and report, for at most MAX_NAMED_CALLERS ids of
// each; a lookup that fails leaves its ids bare (names are a help, the report is the page's data).
import type { CallerCounter, StrategyUsage, UsageReport } from './usage-types';

/** Per id (as in `user=<id>`): the name, for the ids that still exist. */
export type NamesOf = (ids: readonly string[]) => Promise<ReadonlyMap<string, string>>;

export interface CallerNames {
  readonly users: NamesOf;
  readonly tokens: NamesOf;
}

/** The admin's abilities as Strapi's admin auth leaves them in ctx.state.userAbility (CASL). */
export interface ReadingAbility {
  can(action: string, subject?: string, field?: string): boolean;
}

export const READ_USERS = ['plugin::content-manager.explorer.read', 'plugin::users-permissions.user', 'username'] as const;
export const READ_API_TOKENS = 'admin::api-tokens.read';
export const MAX_NAMED_CALLERS = 1000;

type Kind = 'user' | 'token';

/** Strapi's ids in SQL databases are whole numbers; any other id is not looked up. */
const VERIFIED_ID = /^(user|token)=(\d{1,15})$/;

async function namesOrNone(lookup: NamesOf, ids: readonly string[]): Promise<ReadonlyMap<string, string>> {
  if (ids.length === 0) return new Map();
  return lookup(ids).catch(() => new Map());
}

export async function withCallerNames(report: UsageReport, names: CallerNames | undefined, ability: ReadingAbility | undefined): Promise<UsageReport> {
  if (!names || !ability) return report;
  const may = { user: ability.can(...READ_USERS), token: ability.can(READ_API_TOKENS) };
  const wanted = { user: new Set<string>(), token: new Set<string>() };
  for (const strategy of report.strategies) {
    for (const { identifier } of strategy.callers) {
      const match = VERIFIED_ID.exec(identifier);
      const kind = match?.[1] as Kind | undefined;
      if (match && kind && may[kind] && wanted[kind].size < MAX_NAMED_CALLERS) wanted[kind].add(match[2]);
    }
  }
  const [users, tokens] = await Promise.all([namesOrNone(names.users, [...wanted.user]), namesOrNone(names.tokens, [...wanted.token])]);
  if (users.size === 0 && tokens.size === 0) return report;
  const named = (caller: CallerCounter): CallerCounter => {
    const match = VERIFIED_ID.exec(caller.identifier);
    const name = match ? (match[1] === 'user' ? users : tokens).get(match[2]) : undefined;
    return name === undefined ? caller : { ...caller, name };
  };
  const strategies = report.strategies.map((strategy): StrategyUsage => ({ ...strategy, callers: strategy.callers.map(named) }));
  return { ...report, strategies };
}
