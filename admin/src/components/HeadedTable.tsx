// A design-system table with one row of column headings, the shape of every table on the usage page;
// the caller gives the body rows.
import type { ReactNode } from 'react';
import { Table, Tbody, Th, Thead, Tr, Typography } from '@strapi/design-system';

export function HeadedTable({ headings, rowCount, children }: { headings: string[]; rowCount: number; children: ReactNode }) {
  return (
    <Table colCount={headings.length} rowCount={rowCount + 1}>
      <Thead>
        <Tr>
          {headings.map((heading) => (
            <Th key={heading}><Typography variant="sigma">{heading}</Typography></Th>
          ))}
        </Tr>
      </Thead>
      <Tbody>{children}</Tbody>
    </Table>
  );
}
