// Names for the usage report's verified callers (admin-api/caller-names.ts) from Strapi's database:
// users-permissions users by `username`, content-API tokens by `name`, each kind with one query for
// all its ids (`id $in`, only the id and the name selected), whatever the number of callers. An app
// without users-permissions (or without the admin) has no such model: its ids stay bare.
import type { CallerNames, NamesOf } from '../admin-api/caller-names';

interface NameQuery {
  findMany(query: object): Promise<ReadonlyArray<Record<string, unknown>>>;
}

export interface NameReadingStrapi {
  db?: { query(uid: string): unknown };
}

const USER_UID = 'plugin::users-permissions.user';
const API_TOKEN_UID = 'admin::api-token';

function namesFrom(strapi: NameReadingStrapi, uid: string, field: string): NamesOf {
  return async (ids) => {
    const rows = await (strapi.db?.query(uid) as NameQuery | undefined)?.findMany({ select: ['id', field], where: { id: { $in: ids.map(Number) } } });
    return new Map((rows ?? []).flatMap((row) => (typeof row[field] === 'string' ? [[String(row.id), row[field] as string] as const] : [])));
  };
}

export function strapiCallerNames(strapi: NameReadingStrapi): CallerNames {
  return { users: namesFrom(strapi, USER_UID, 'username'), tokens: namesFrom(strapi, API_TOKEN_UID, 'name') };
}
