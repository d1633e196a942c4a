// The repository's root directory, found from a script's own location, so the generators write
// to the same place whether they run from scripts/ (ts-jest) or dist/scripts/ (after a build).
import { existsSync } from 'node:fs';
import path from 'node:path';

/** The directory holding package.json above `start`. */
export function repositoryRoot(start: string): string {
  let directory = start;
  while (!existsSync(path.join(directory, 'package.json'))) {
    const parent = path.dirname(directory);
    if (parent === directory) throw new Error(`no package.json above ${start}`);
    directory = parent;
  }
  return directory;
}
