// Runs inside the Strapi child of a Strapi scenario (tests/fixtures/strapi-child.ts loads it once the
// app has booted): makes the scenario's credential in the app and answers the CPU meter's calls.
import type { StrapiChildExtension } from '../tests/fixtures/strapi-child';
import { createAppMeter } from './app-meter';
import { createCredential, type BenchCredential } from './credentials';

export interface StrapiAppExtra {
  /** Headers every request of the load sends: the scenario's credential, if it has one. */
  readonly headers: Readonly<Record<string, string>>;
}

export const extendStrapiChild: StrapiChildExtension<BenchCredential | undefined, StrapiAppExtra> = async (strapi, credential) => {
  const headers: Record<string, string> = credential ? { authorization: `Bearer ${await createCredential(strapi, credential)}` } : {};
  return { ready: { headers }, calls: createAppMeter().calls };
};
