// Pub/sub and MONITOR: PUBLISH and PUBSUB run as commands; subscribing and monitoring have their
// own streaming routes, so the commands themselves are refused with a pointer to the route.
import { command, container, NO_KEYS } from './define';

export const pubsubCommands = [
  command('publish', 3, ['pubsub', 'write']),
  command('subscribe', -2, ['pubsub', 'noscript'], NO_KEYS, { unsupported: 'subscribe through the /subscribe/<channel> route' }),
  command('psubscribe', -2, ['pubsub', 'noscript'], NO_KEYS, { unsupported: 'subscribe through the /psubscribe/<pattern> route' }),
  command('unsubscribe', -1, ['pubsub', 'noscript'], NO_KEYS, { unsupported: 'close the /subscribe stream to unsubscribe' }),
  command('punsubscribe', -1, ['pubsub', 'noscript'], NO_KEYS, { unsupported: 'close the /psubscribe stream to unsubscribe' }),
  container('pubsub', -2, [
    command('pubsub|channels', -2, ['pubsub', 'readonly']),
    command('pubsub|numsub', -2, ['pubsub', 'readonly']),
    command('pubsub|numpat', 2, ['pubsub', 'readonly']),
  ]),
  command('monitor', 1, ['admin', 'noscript'], NO_KEYS, { unsupported: 'monitor through the /monitor route' }),
];
