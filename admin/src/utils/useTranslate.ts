// The page's one way to word a message: a translation id of this plugin with its English default,
// so every component reads `t('callers.title', 'Live counters: ...', values)` the same way.
import { useIntl } from 'react-intl';
import { getTranslation } from './getTranslation';

export type Translate = (id: string, defaultMessage: string, values?: Record<string, string | number>) => string;

export function useTranslate(): Translate {
  const { formatMessage } = useIntl();
  return (id, defaultMessage, values) => formatMessage({ id: getTranslation(id), defaultMessage }, values);
}
