// The connection family's commands the REST API serves: PING and ECHO. The rest of the family, and
// the transaction-control, blocking and cluster commands, are refused by the REST policy (rest-policy.ts).
import { command } from './define';

export const connectionCommands = [command('ping', -1, []), command('echo', 2, [])];
