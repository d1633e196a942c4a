// ACL subcommands the memory engine serves: SETUSER, DELUSER, USERS, LIST and WHOAMI.
// (ACL RESTTOKEN mints tokens in the HTTP layer, which asks the engine to authenticate.)
import { bulk, bulkArray, integer, OK, type Reply } from '../../reply';
import { isErrorReply } from '../arguments';
import type { CommandContext, CommandHandlers } from '../handler';
import type { ServerState } from '../server-state';

export function createAclCommandHandlers(state: ServerState): CommandHandlers {
  return {
    'acl|setuser': (args) => state.acl.setUser(args[2], args.slice(3)) ?? OK,
    'acl|deluser': (args): Reply => {
      const deleted = state.acl.deleteUsers(args.slice(2));
      return isErrorReply(deleted) ? deleted : integer(deleted);
    },
    'acl|users': () => bulkArray(state.acl.names()),
    'acl|list': () => bulkArray(state.acl.describeAll()),
    'acl|whoami': (_args, ctx: CommandContext) => bulk(ctx.caller.user),
  };
}
