// One circuit breaker (store-circuit.ts) per master of a Redis Cluster, where one node or a Sentinel
// primary has one per store. A master that fails (killed, hung, failing over) opens its own circuit
// only: callers whose keys live on the other masters are still decided by the store. With one
// breaker per store, a command that timed out on the dead master made every caller fail fast for the
// next 100 ms and longer while its probes failed: with `cluster-require-full-coverage no`, 145 of
// 300 and 92 of 276 requests of callers on healthy masters failed open in two runs of the failover
// test (issue 34 finding 4; README "Production on your own Redis" has the figures since).
// A command's breaker is its slot's owner in ioredis's slot map (the node ioredis sends it to), found
// from the slot ioredis computes for routing anyway (Command.getSlot, cached on the command): a map
// lookup per command. A command refused by an open circuit cost the same as with one breaker, within
// noise (measured ad hoc on a loaded machine, 6 alternating rounds of 50,000, the Command and the
// refusal's error included: 27-55 µs per command with one breaker, 30-53 per master). When the slot map
// moves a slot to a promoted replica, its commands meet that node's breaker, closed unless that node
// failed too. Commands with no key (SCAN walks the primaries itself), and any sent before the first
// slot map, share the store's breaker. A node's breaker closes as soon as ioredis has connected to it
// again, and is dropped when ioredis drops the node, so there is one per node of the cluster at most.
import type { Cluster, Command, Redis } from 'ioredis';
import { StoreCircuit } from '../store-circuit';

/** How ioredis's slot map names a node (its NodeKey). */
const nodeKey = (node: { options: { host?: string; port?: number } }): string => `${node.options.host}:${node.options.port}`;

export class ClusterCircuits {
  private readonly byNode = new Map<string, StoreCircuit>();

  constructor(
    private readonly cluster: Cluster,
    /** The store's breaker: for commands no slot places. */
    private readonly whole: StoreCircuit,
  ) {
    cluster.on('+node', (node: Redis) => node.on('ready', () => this.byNode.get(nodeKey(node))?.storeIsBack()));
    cluster.on('-node', (node: Redis) => this.byNode.delete(nodeKey(node)));
  }

  /** The breaker of the master `command` goes to. */
  of(command: Command): StoreCircuit {
    const slot = command.getSlot();
    const owner = slot === null ? undefined : this.cluster.slots[slot]?.[0];
    if (owner === undefined) return this.whole;
    let circuit = this.byNode.get(owner);
    if (circuit === undefined) this.byNode.set(owner, (circuit = new StoreCircuit(`Redis at ${owner}`)));
    return circuit;
  }

  /** The cluster is connected again: every breaker closes. */
  storeIsBack(): void {
    for (const circuit of this.byNode.values()) circuit.storeIsBack();
  }
}
