// What this admin may do on the usage page (reset callers; configure: live limits and the deny
// list), asked once for the whole page, and known before the report's first paint: the page waits
// for it as it waits for the report, so no "Change limit", "Deny" or "Actions" column appears late
// and moves what the admin is reading (issue 34: the buttons arrived after the tables and shifted them).
import { createContext, useContext } from 'react';
import { useRBAC } from '@strapi/strapi/admin';
import { PERMISSIONS } from '../pluginId';

export interface PagePermissions {
  canReset: boolean;
  canConfigure: boolean;
}

const NONE: PagePermissions = { canReset: false, canConfigure: false };
const PagePermissionsContext = createContext<PagePermissions>(NONE);

/** The page's permissions from Strapi's RBAC, and whether they are still being asked for. */
export function useAskPagePermissions(): PagePermissions & { isLoading: boolean } {
  const { allowedActions, isLoading } = useRBAC([...PERMISSIONS.reset, ...PERMISSIONS.configure]);
  if (isLoading) return { ...NONE, isLoading };
  return { canReset: allowedActions.canReset === true, canConfigure: allowedActions.canConfigure === true, isLoading };
}

export const PagePermissionsProvider = PagePermissionsContext.Provider;

export const usePagePermissions = (): PagePermissions => useContext(PagePermissionsContext);
