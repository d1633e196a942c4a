// One card of the usage page: a white panel with a section heading, so the strategies, the live
// counters and the chart look alike and a screen reader can jump between them by heading.
import type { ReactNode } from 'react';
import { Box, Typography } from '@strapi/design-system';

export function Card({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Box tag="section" background="neutral0" padding={6} shadow="tableShadow" hasRadius>
      <Typography variant="beta" tag="h2">{title}</Typography>
      <Box paddingTop={4}>{children}</Box>
    </Box>
  );
}
