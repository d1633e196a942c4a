// PUBLISH and the PUBSUB introspection subcommands (CHANNELS, NUMSUB, NUMPAT). Subscribing happens
// through Engine.subscribe, which the HTTP layer's streaming routes call.
import { array, bulk, bulkArray, integer } from '../../reply';
import type { CommandHandlers } from '../handler';
import type { ServerState } from '../server-state';

export function createPubSubCommandHandlers(state: ServerState): CommandHandlers {
  return {
    publish: (args) => integer(state.pubsub.publish(args[1], args[2])),
    'pubsub|channels': (args) => bulkArray(state.pubsub.activeChannels(args[2])),
    'pubsub|numsub': (args) => array(args.slice(2).flatMap((channel) => [bulk(channel), integer(state.pubsub.subscriberCount(channel))])),
    'pubsub|numpat': () => integer(state.pubsub.patternCount()),
  };
}
