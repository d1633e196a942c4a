// SORT and SORT_RO specs. SORT writes when given STORE, whose key follows the keyword; BY and GET
// patterns read keys no position names, which Redis allows only to users allowed every key.
import type { CommandSpec } from '../command-table';
import { command, FIRST_KEY } from './define';

/** Walks SORT's options the way its parser does, calling `visit` with each option and its position. */
function eachOption(args: readonly string[], visit: (option: string, index: number) => string | undefined): string | undefined {
  for (let index = 2; index < args.length; index++) {
    const option = args[index].toLowerCase();
    const found = visit(option, index);
    if (found !== undefined) return found;
    if (option === 'limit') index += 2;
    else if (option === 'store' || option === 'by' || option === 'get') index++;
  }
  return undefined;
}

function patternsNeedEveryKey(args: readonly string[]): string | undefined {
  return eachOption(args, (option, index) => {
    if (index + 1 >= args.length) return undefined;
    if (option === 'by' && args[index + 1].includes('*')) return 'ERR BY option of SORT denied due to insufficient ACL permissions.';
    if (option === 'get') return 'ERR GET option of SORT denied due to insufficient ACL permissions.';
    return undefined;
  });
}

export const sortCommands: readonly CommandSpec[] = [
  command('sort', -2, ['write'], FIRST_KEY, { needsEveryKey: patternsNeedEveryKey }),
  command('sort_ro', -2, ['readonly'], FIRST_KEY, { needsEveryKey: patternsNeedEveryKey }),
];
