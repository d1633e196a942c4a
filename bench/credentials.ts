// The credential a Strapi scenario's requests carry (`Authorization: Bearer ...`), made inside the
// booted app through Strapi's own services, as an app's users get theirs: a content-API token from
// the admin's API-token service, or a users-permissions JWT for a user of that plugin. The
// `identifierSource: 'user'` scenarios then pay exactly what a real request costs to verify.
import type { StrapiInstance } from '../demo/boot-strapi';

export type BenchCredential = 'api-token' | 'jwt';

interface CredentialServices {
  service(uid: string): { create(attributes: object): Promise<{ accessKey: string }> };
  plugin(name: string): { service(name: string): { add(values: object): Promise<{ id: number }>; issue(payload: object): string } };
}

export async function createCredential(strapi: StrapiInstance, credential: BenchCredential): Promise<string> {
  const services = strapi as unknown as CredentialServices;
  if (credential === 'api-token') {
    const token = await services.service('admin::api-token-content-api').create({ name: 'bench', description: '', type: 'read-only', lifespan: null, kind: 'content-api' });
    return token.accessKey;
  }
  const usersPermissions = services.plugin('users-permissions');
  const user = await usersPermissions.service('user').add({ username: 'bench', email: 'bench@example.com', password: 'Bench-Passw0rd', provider: 'local', confirmed: true });
  return usersPermissions.service('jwt').issue({ id: user.id });
}
