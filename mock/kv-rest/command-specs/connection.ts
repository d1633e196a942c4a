// Connection, transaction-control, blocking and cluster commands: PING and ECHO, and the refusals
// the REST API gives for the rest of these families.
import { command, unsupported } from './define';

export const BLOCKING = 'blocking commands are not supported by the REST API';
const CONNECTION = 'only PING and ECHO are supported from the connection family';

export const connectionCommands = [
  command('ping', -1, ['readonly']),
  command('echo', 2, ['readonly']),
  ...['auth', 'select', 'hello', 'client', 'quit', 'reset', 'swapdb', 'wait', 'readonly', 'readwrite', 'asking'].map((name) =>
    unsupported(name, -1, CONNECTION),
  ),
  unsupported('multi', 1, 'transactions are sent to /multi-exec'),
  unsupported('exec', 1, 'transactions are sent to /multi-exec'),
  unsupported('watch', -2, 'WATCH is not supported by the REST API'),
  unsupported('unwatch', 1, 'UNWATCH is not supported by the REST API'),
  unsupported('discard', 1, 'DISCARD is not supported by the REST API'),
  unsupported('blpop', -3, BLOCKING),
  unsupported('brpop', -3, BLOCKING),
  unsupported('brpoplpush', 4, BLOCKING),
  unsupported('blmove', 6, BLOCKING),
  unsupported('blmpop', -5, BLOCKING),
  unsupported('bzpopmax', -3, BLOCKING),
  unsupported('bzpopmin', -3, BLOCKING),
  unsupported('bzmpop', -5, BLOCKING),
  unsupported('cluster', -2, 'cluster commands are not supported'),
];
