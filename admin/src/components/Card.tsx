// One card of the usage page: a white panel with a section heading, so the strategies, the live
// counters and the chart look alike, and each is a landmark named by its heading that a screen
// reader (and a test) can go to.
import { useId, type ReactNode } from 'react';
import { Box, Typography } from '@strapi/design-system';

export function Card({ title, children }: { title: string; children: ReactNode }) {
  const headingId = useId();
  return (
    <Box tag="section" aria-labelledby={headingId} background="neutral0" padding={6} shadow="tableShadow" hasRadius>
      <Typography id={headingId} variant="beta" tag="h2">{title}</Typography>
      <Box paddingTop={4}>{children}</Box>
    </Box>
  );
}
