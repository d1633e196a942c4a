// Scripting commands: EVAL, SCRIPT, and functions (FUNCTION, FCALL). EVAL-style commands name their
// keys with a numkeys argument, which Redis's key specs (key-specs.ts) resolve. FUNCTION DUMP,
// RESTORE and HELP are described by Redis's metadata only (the memory engine does not serve them).
import { command, container } from './define';

export const scriptingCommands = [
  command('eval', -3, ['noscript']),
  command('evalsha', -3, ['noscript']),
  command('eval_ro', -3, ['noscript', 'readonly']),
  command('evalsha_ro', -3, ['noscript', 'readonly']),
  container('script', -2, [
    command('script|load', 3, ['noscript']),
    command('script|exists', -3, ['noscript']),
    command('script|flush', -2, ['noscript']),
  ]),
  command('fcall', -3, ['noscript']),
  command('fcall_ro', -3, ['noscript', 'readonly']),
  container('function', -2, [
    command('function|load', -3, ['write', 'noscript']),
    command('function|list', -2, ['noscript']),
    command('function|delete', 3, ['write', 'noscript']),
    command('function|flush', -2, ['write', 'noscript']),
    command('function|stats', 2, ['noscript']),
    command('function|kill', 2, ['noscript']),
  ]),
];
