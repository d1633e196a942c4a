// Test support: how often the plugin reads each selection set of the documents it parses, a count
// that proves a pass over a document linear without timing it. A test file wraps graphql-js's parse
// with `countReads` (jest.mock('graphql', ...) with a factory that takes this module through
// jest.requireActual), and every selection set then counts the reads of its `selections` while
// `counting.on` is set.
import type { DocumentNode } from 'graphql';

/** Each selection set of every document parsed since the test began, with its reads. */
export const reads = new Map<object, number>();
export const counting = { on: false };

/** Makes every selection set of `document` count how often its selections are read (while `counting.on`). */
export function countReads(document: DocumentNode): DocumentNode {
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (typeof node !== 'object' || node === null) return;
    for (const value of Object.values(node)) visit(value);
    if ('selections' in node && Array.isArray(node.selections)) {
      const { selections } = node;
      reads.set(node, 0);
      Object.defineProperty(node, 'selections', {
        get: () => {
          if (counting.on) reads.set(node, (reads.get(node) ?? 0) + 1);
          return selections;
        },
      });
    }
  };
  visit(document);
  return document;
}

/** How many selection sets were read how many times (`{ reads: sets }`). */
export function setsByReads(): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const count of reads.values()) counts[count] = (counts[count] ?? 0) + 1;
  return counts;
}
