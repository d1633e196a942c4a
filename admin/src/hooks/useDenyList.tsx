// The deny list as the page shares it: loaded from GET /ratelimit/deny, reloaded whenever the usage
// report is (`refreshKey`) and after each change (whether this admin may change it is the page's
// permissions: usePagePermissions.tsx). The "Denied callers" card and the "Deny" buttons of the callers tables read
// it through one context, so a deny from a table shows in the card at once.
import { createContext, useCallback, useContext, useEffect, useState, type ReactNode } from 'react';
import { useFetchClient } from '@strapi/strapi/admin';
import { DENY_PATH, type DenyListReport } from '../api';
import { failureMessage } from '../utils/failureMessage';

export interface DenyListState {
  report?: DenyListReport;
  error?: string;
  reload(): Promise<void>;
}

const DenyListContext = createContext<DenyListState>({ reload: async () => undefined });

export function DenyListProvider({ refreshKey, children }: { refreshKey: unknown; children: ReactNode }) {
  const { get } = useFetchClient();
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

  return <DenyListContext.Provider value={{ report, error, reload }}>{children}</DenyListContext.Provider>;
}

export const useDenyList = (): DenyListState => useContext(DenyListContext);
