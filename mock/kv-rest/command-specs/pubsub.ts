// Pub/sub: PUBLISH and PUBSUB run as commands; subscribing and monitoring have their own streaming
// routes, so the REST policy (rest-policy.ts) refuses those commands with a pointer to the route.
import { command, container } from './define';

export const pubsubCommands = [
  command('publish', 3, ['pubsub']),
  container('pubsub', -2, [
    command('pubsub|channels', -2, ['pubsub']),
    command('pubsub|numsub', -2, ['pubsub']),
    command('pubsub|numpat', 2, ['pubsub']),
  ]),
];
