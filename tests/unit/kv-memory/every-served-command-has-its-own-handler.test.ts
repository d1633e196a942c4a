// The memory engine finds a command's implementation by the name of the table entry the command
// resolved to, so a subcommand has a handler of its own rather than its container's handler looking
// the subcommand up again (SCRIPT, FUNCTION and JSON.DEBUG did), and no handler is left without an
// entry that reaches it.
import { allCommands, type CommandSpec } from '../../../mock/kv-rest/command-table';
import { AclUsers } from '../../../mock/kv-rest/memory/acl/acl-users';
import { createCommandHandlers } from '../../../mock/kv-rest/memory/dispatch';
import { Keyspace } from '../../../mock/kv-rest/memory/keyspace';
import { PubSubHub } from '../../../mock/kv-rest/memory/pubsub-hub';

/** Every table entry a command can resolve to: commands without subcommands, and subcommands. */
function resolvableEntries(): CommandSpec[] {
  return allCommands().flatMap((spec) => (spec.subcommands ? [...spec.subcommands.values()] : [spec]));
}

describe('the memory engine\'s handlers', () => {
  const handlers = createCommandHandlers({ db: new Keyspace(), acl: new AclUsers(), pubsub: new PubSubHub(), startedAt: 0, stats: { commandsProcessed: 0, expiredKeys: 0 }, openStreams: () => 0 });

  it('have one handler for each entry the memory engine serves, by the entry\'s name; ACL RESTTOKEN is answered by the REST runner', () => {
    const served = resolvableEntries().filter((spec) => !spec.generatedOnly && !spec.unsupported);
    expect(served.filter((spec) => handlers[spec.name] === undefined).map((spec) => spec.name)).toEqual(['acl|resttoken']);
  });

  it('have no handler that no entry resolves to', () => {
    const names = new Set(resolvableEntries().map((spec) => spec.name));
    expect(Object.keys(handlers).filter((name) => !names.has(name))).toEqual([]);
  });

  it('have no handler for an entry the REST policy refuses, so such a command cannot run here even when handed over directly', () => {
    expect(resolvableEntries().filter((spec) => spec.unsupported !== undefined && handlers[spec.name] !== undefined).map((spec) => spec.name)).toEqual([]);
  });
});
