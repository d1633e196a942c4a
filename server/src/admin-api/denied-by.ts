// Who denied each listed member, by name: the store keeps only the admin's id (deny/deny-store.ts),
// so the list is given names when it is read, by whatever knows the admin users (in Strapi, its
// admin user service: strapi/admin-names.ts). Each distinct id is looked up once, and at most
// MAX_RESOLVED_ADMINS of them per listing, so a meta HASH filled with made-up ids (the Standard
// token can write one) costs a bounded number of lookups; the rest stay ids.
import type { DenyListReport } from './usage-types';

/** Per admin id: the admin's name, or null when no admin user has that id. */
export type AdminNames = (ids: readonly string[]) => Promise<ReadonlyMap<string, string | null>>;

export const MAX_RESOLVED_ADMINS = 50;

export async function withAdminNames(report: DenyListReport, names: AdminNames | undefined): Promise<DenyListReport> {
  if (!names) return report;
  const ids = [...new Set(report.members.flatMap((member) => (member.adminId === undefined ? [] : [member.adminId])))].slice(0, MAX_RESOLVED_ADMINS);
  if (ids.length === 0) return report;
  const resolved = await names(ids);
  const members = report.members.map((member) => {
    const name = member.adminId === undefined ? undefined : resolved.get(member.adminId);
    if (name === undefined) return member;
    return name === null ? { ...member, adminRemoved: true } : { ...member, by: name };
  });
  return { ...report, members };
}
