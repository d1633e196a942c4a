// A caller's remaining tokens as a bar: full when untouched, red and empty when blocked.
import { Box, Flex, Typography } from '@strapi/design-system';
import { useIntl } from 'react-intl';
import { getTranslation } from '../utils/getTranslation';

export function RemainingBar({ remaining, limit }: { remaining: number; limit: number }) {
  const { formatMessage } = useIntl();
  const share = limit > 0 ? Math.max(0, Math.min(1, remaining / limit)) : 0;
  const colour = share === 0 ? 'danger600' : share < 0.25 ? 'warning500' : 'success500';
  const label = formatMessage({ id: getTranslation('callers.remainingValue'), defaultMessage: '{remaining} of {limit} left' }, { remaining, limit });
  return (
    <Flex gap={2} alignItems="center">
      <Box
        role="meter"
        aria-label={label}
        aria-valuemin={0}
        aria-valuemax={limit}
        aria-valuenow={remaining}
        background="neutral150"
        hasRadius
        width="120px"
        height="8px"
        overflow="hidden"
      >
        <Box background={colour} height="100%" width={`${Math.round(share * 100)}%`} />
      </Box>
      <Typography variant="pi" textColor={share === 0 ? 'danger600' : 'neutral600'}>
        {label}
      </Typography>
    </Flex>
  );
}
