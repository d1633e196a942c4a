// Test support: admin users of a booted app, made through Strapi's own services (no registration
// page), and their JWTs from `POST /admin/login`.
import type { StrapiApp } from './strapi-app';

interface AdminStrapi {
  db: { query(uid: string): { findOne(query: object): Promise<{ id: number } | null> } };
  service(uid: string): Record<string, (...args: never[]) => Promise<unknown>>;
}

export const ADMIN_PASSWORD = 'Fixture-Passw0rd';

/** The id of one of the app's admin roles by its code, e.g. `strapi-super-admin`. */
export async function adminRoleId(app: StrapiApp, code: string): Promise<number> {
  const role = await (app.strapi as unknown as AdminStrapi).db.query('admin::role').findOne({ where: { code } });
  if (!role) throw new Error(`The fixture app has no admin role ${code}`);
  return role.id;
}

/** An active admin user with ADMIN_PASSWORD. */
export async function createAdminUser(app: StrapiApp, email: string, roleId: number): Promise<void> {
  const create = (app.strapi as unknown as AdminStrapi).service('admin::user').create as (user: object) => Promise<unknown>;
  await create({ email, firstname: 'Fixture', lastname: 'Admin', password: ADMIN_PASSWORD, isActive: true, registrationToken: null, roles: [roleId] });
}

/** An admin JWT for an existing user, as the admin panel gets one. */
export async function adminToken(app: StrapiApp, email: string): Promise<string> {
  const response = await app.request.post('/admin/login').send({ email, password: ADMIN_PASSWORD });
  if (response.status !== 200) throw new Error(`Admin login of ${email} answered ${response.status}`);
  return response.body.data.token as string;
}
