// The page's one way to word a message: a translation id of this plugin (prefixed with its id, as
// registerTrads expects) and its English default, which must match en.json (a unit test checks).
import { useIntl } from 'react-intl';
import { getTranslation } from './getTranslation';

export type Translate = (id: string, defaultMessage: string, values?: Record<string, string | number>) => string;

export function useTranslate(): Translate {
  const { formatMessage } = useIntl();
  return (id, defaultMessage, values) => formatMessage({ id: getTranslation(id), defaultMessage }, values);
}
