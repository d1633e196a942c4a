// Pub/sub for the memory engine: channel and pattern subscribers, PUBLISH's delivery and receiver
// count, and what PUBSUB CHANNELS/NUMSUB/NUMPAT report. Delivery is synchronous, in Redis's order:
// channel subscribers first, then pattern subscribers.
import type { PubSubListener } from '../engine';
import { compileGlob, type Glob } from './glob';

/** A subscriber whose stream broke must not make PUBLISH fail for the publisher. */
function deliver(listener: PubSubListener, fields: readonly string[]): void {
  try {
    listener(fields);
  } catch {
    // The subscriber's own stream reports and ends itself; the message is simply lost to it.
  }
}

export class PubSubHub {
  private readonly channels = new Map<string, Set<PubSubListener>>();
  private readonly patterns = new Map<string, Set<PubSubListener>>();
  /** Each subscribed pattern compiled once, not once per published message. */
  private readonly patternGlobs = new Map<string, Glob>();

  /** Subscribes `listener` to each target, announcing each with its running subscription count. */
  subscribe(mode: 'channel' | 'pattern', targets: readonly string[], listener: PubSubListener): () => void {
    const registry = mode === 'channel' ? this.channels : this.patterns;
    const joined = new Set<string>();
    for (const target of targets) {
      joined.add(target);
      let listeners = registry.get(target);
      if (!listeners) {
        registry.set(target, (listeners = new Set()));
        if (mode === 'pattern') this.patternGlobs.set(target, compileGlob(target));
      }
      listeners.add(listener);
      listener([mode === 'channel' ? 'subscribe' : 'psubscribe', target, String(joined.size)]);
    }
    return () => {
      for (const target of joined) {
        const listeners = registry.get(target);
        listeners?.delete(listener);
        if (listeners?.size !== 0) continue;
        registry.delete(target);
        if (mode === 'pattern') this.patternGlobs.delete(target);
      }
    };
  }

  /** Delivers `message` and returns how many subscriptions received it. */
  publish(channel: string, message: string): number {
    let receivers = 0;
    for (const listener of this.channels.get(channel) ?? []) {
      deliver(listener, ['message', channel, message]);
      receivers++;
    }
    for (const [pattern, listeners] of this.patterns) {
      if (!this.patternGlobs.get(pattern)?.matches(channel)) continue;
      for (const listener of listeners) {
        deliver(listener, ['pmessage', pattern, channel, message]);
        receivers++;
      }
    }
    return receivers;
  }

  /** Channels with at least one subscriber, optionally filtered by a glob. */
  activeChannels(pattern?: string): string[] {
    const glob = pattern === undefined ? undefined : compileGlob(pattern);
    return [...this.channels.keys()].filter((channel) => !glob || glob.matches(channel));
  }

  subscriberCount(channel: string): number {
    return this.channels.get(channel)?.size ?? 0;
  }

  patternCount(): number {
    return this.patterns.size;
  }
}
