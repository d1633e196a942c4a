// Scripting commands. EVAL-style commands name their keys with a numkeys argument, which
// Redis's key specs (key-specs.ts) resolve.
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
];
