// Names for the admin ids the deny list keeps (admin-api/denied-by.ts), from Strapi's own admin
// user service: each id read once with `findOne(id, [])` (no relations), named as every admin
// change names its admin in the log (admin-api/admin-of.ts). An id no user has any more is a
// removed admin (null); without the admin (plain Koa hosts, tests) nothing is resolved.
import { adminName } from '../admin-api/admin-of';
import type { AdminNames } from '../admin-api/denied-by';

interface AdminUserService {
  findOne(id: string | number, populate: readonly string[]): Promise<{ id?: unknown; email?: unknown } | null | undefined>;
}

export interface AdminUserStrapi {
  service?(uid: string): unknown;
}

export function strapiAdminNames(strapi: AdminUserStrapi): AdminNames {
  return async (ids) => {
    const users = strapi.service?.('admin::user') as AdminUserService | undefined;
    if (!users) return new Map();
    // Strapi's ids are numbers in SQL databases: the stored text is given back as one when it is one.
    const found = await Promise.all(ids.map((id) => users.findOne(/^\d{1,15}$/.test(id) ? Number(id) : id, [])));
    return new Map(ids.map((id, index) => {
      const user = found[index];
      return [id, user ? adminName(user) : null];
    }));
  };
}
