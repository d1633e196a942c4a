// The "Denied callers" card: every member of the deny list with when, by whom and until when it was
// denied (console-added members have no when or by; an admin removed since is named by the id the
// store keeps), a Lift button and the form to deny a caller
// for admins with the configure action, and how long a lift takes to reach the other instances.
import { Button, Flex, Td, Tr, Typography } from '@strapi/design-system';
import { ArrowClockwise } from '@strapi/icons';
import { useFetchClient, useNotification } from '@strapi/strapi/admin';
import { useIntl } from 'react-intl';
import { LIFT_PATH, type DeniedCaller } from '../api';
import { useDenyList } from '../hooks/useDenyList';
import { usePagePermissions } from '../hooks/usePagePermissions';
import { failureMessage } from '../utils/failureMessage';
import { useTranslate } from '../utils/useTranslate';
import { Card } from './Card';
import { DenyForm } from './DenyForm';
import { HeadedTable } from './HeadedTable';

const WHEN = { month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit' } as const;

export function DeniedCallersCard() {
  const t = useTranslate();
  const { formatDate } = useIntl();
  const { post } = useFetchClient();
  const { toggleNotification } = useNotification();
  const { report, error, reload } = useDenyList();
  const { canConfigure } = usePagePermissions();

  const lift = async (member: string) => {
    try {
      await post(LIFT_PATH, { member });
      toggleNotification({ type: 'success', message: t('denied.lifted', '{member} is no longer denied.', { member }) });
    } catch (failure) {
      toggleNotification({ type: 'danger', message: t('denied.liftFailed', 'The deny could not be lifted: {message}', { message: failureMessage(failure) }) });
    }
    await reload();
  };

  const deniedBy = ({ by, adminId, adminRemoved }: DeniedCaller): string => {
    if (by !== undefined) return by;
    if (adminId === undefined) return t('denied.byConsole', 'outside the plugin');
    return adminRemoved ? t('denied.byRemovedAdmin', 'a removed admin (id {id})', { id: adminId }) : t('denied.byAdminId', 'admin {id}', { id: adminId });
  };

  const headings = [
    t('denied.member', 'Caller'),
    t('denied.at', 'Denied'),
    t('denied.by', 'By'),
    t('denied.until', 'Until'),
    ...(canConfigure ? [t('denied.actions', 'Actions')] : []),
  ];
  const members = report?.members ?? [];
  return (
    <Card title={t('denied.title', 'Denied callers')}>
      <Flex direction="column" alignItems="stretch" gap={4}>
        <Typography variant="pi" textColor="neutral600" tag="p">
          {report && !report.enabled
            ? t('denied.off', 'The deny check is off (denyList: false): listed callers are limited like any other.')
            : t('denied.explain', 'A denied caller gets 403 on every limited route. A lift applies at once on this Strapi instance and within {seconds} s on the others.', { seconds: report?.cacheSeconds ?? 10 })}
        </Typography>
        {error && <Typography textColor="danger600" tag="p">{t('denied.loadFailed', 'The deny list could not be loaded: {message}', { message: error })}</Typography>}
        {members.length === 0 ? (
          // Unknown while the list cannot be loaded: the line above says so instead.
          report && <Typography textColor="neutral600" tag="p">{t('denied.none', 'No caller is denied.')}</Typography>
        ) : (
          <HeadedTable headings={headings} rowCount={members.length}>
            {members.map((denied) => (
              <Tr key={denied.member}>
                <Td><Typography fontWeight="semiBold">{denied.member}</Typography></Td>
                <Td><Typography>{denied.at === undefined ? '—' : formatDate(denied.at, WHEN)}</Typography></Td>
                <Td><Typography>{deniedBy(denied)}</Typography></Td>
                <Td><Typography>{denied.until === undefined ? t('denied.untilLifted', 'until lifted') : formatDate(denied.until, WHEN)}</Typography></Td>
                {canConfigure && (
                  <Td>
                    <Button variant="secondary" size="S" startIcon={<ArrowClockwise />} onClick={() => void lift(denied.member)} aria-label={t('denied.liftLabel', 'Lift the deny of {member}', { member: denied.member })}>
                      {t('denied.lift', 'Lift')}
                    </Button>
                  </Td>
                )}
              </Tr>
            ))}
          </HeadedTable>
        )}
        {canConfigure && <DenyForm />}
      </Flex>
    </Card>
  );
}
