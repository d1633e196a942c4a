// The deny list as the page shares it: loaded from GET /ratelimit/deny, reloaded whenever the usage
// report is (`refreshKey`) and after each change, with whether this admin may change it (the
// configure action). The "Denied callers" card and the "Deny" buttons of the callers tables read
// it through one context, so a deny from a table shows in the card at once.
import { createContext, useCallback, useContext, useEffect, useState, type ReactNode } from 'react';
import { useFetchClient, useRBAC } from '@strapi/strapi/admin';
import { DENY_PATH, type DenyListReport } from '../api';
import { PERMISSIONS } from '../pluginId';
import { failureMessage } from '../utils/failureMessage';

export interface DenyListState {
  report?: DenyListReport;
  error?: string;
  canConfigure: boolean;
  reload(): Promise<void>;
}

const DenyListContext = createContext<DenyListState>({ canConfigure: false, reload: async () => undefined });

export function DenyListProvider({ refreshKey, children }: { refreshKey: unknown; children: ReactNode }) {
  const { get } = useFetchClient();
  const { allowedActions, isLoading } = useRBAC(PERMISSIONS.configure);
  const [report, setReport] = useState<DenyListReport>();
  const [error, setError] = useState<string>();

  const reload = useCallback(async () => {
    try {
      setReport((await get<{ data: DenyListReport }>(DENY_PATH)).data.data);
      setError(undefined);
    } catch (failure) {
      setError(failureMessage(failure));
    }
  }, [get]);

  useEffect(() => {
    void reload();
  }, [reload, refreshKey]);

  const canConfigure = !isLoading && allowedActions.canConfigure === true;
  return <DenyListContext.Provider value={{ report, error, canConfigure, reload }}>{children}</DenyListContext.Provider>;
}

export const useDenyList = (): DenyListState => useContext(DenyListContext);
