// Reads a `node --cpu-prof` profile (.cpuprofile, the Chrome DevTools format) into the time each layer
// of the app (profile-layers.ts) and each function spent on the main thread, over a span of the
// process's life: the measured load, without the start-up and the warm-up the file also holds.
import { IDLE, layerOfFrame, shortLocation, type CallFrame, type Layer } from './profile-layers';

export interface CpuProfile {
  readonly nodes: readonly ProfileNode[];
  /** Microseconds on the system's monotonic clock: the clock of `process.hrtime`, in every process. */
  readonly startTime: number;
  readonly endTime: number;
  /** The node (by id) on top of the stack at each sample. */
  readonly samples: readonly number[];
  /** Microseconds from the previous sample (the first: from startTime). */
  readonly timeDeltas: readonly number[];
}

export interface ProfileNode {
  readonly id: number;
  readonly callFrame: CallFrame;
  readonly children?: readonly number[];
}

/** A span on the monotonic clock, in microseconds. */
export interface Span {
  readonly fromMicros: number;
  readonly toMicros: number;
}

export interface FunctionTime {
  readonly layer: Layer;
  readonly functionName: string;
  /** `dist/server/src/http/middleware.js:40`, `koa/lib/application.js:12`, `(native)`. */
  readonly location: string;
  readonly micros: number;
}

export interface ProfileBreakdown {
  /** The main thread's time in the span, idle excluded, in microseconds. */
  readonly busyMicros: number;
  readonly byLayer: ReadonlyMap<Layer, number>;
  /** Most time first. */
  readonly functions: readonly FunctionTime[];
}

/** Who pays for a sample: the first frame from the top of the stack that has a layer, and that layer. */
interface Charge {
  readonly layer: Layer;
  readonly frame: CallFrame;
}

/**
 * The profile's samples within `span` (all of them without one), each weighing the time since the
 * sample before it, charged to the layer and function on top of its stack, or, for a native no rule
 * names, to the function that called it.
 */
export function breakdownOf(profile: CpuProfile, span?: Span): ProfileBreakdown {
  if (span && (span.fromMicros < profile.startTime || span.toMicros > profile.endTime)) {
    throw new Error(`the span ${span.fromMicros}..${span.toMicros} µs lies outside the profile (${profile.startTime}..${profile.endTime} µs): is the profile from the same machine's monotonic clock?`);
  }
  const charges = chargesOf(profile.nodes);
  const byLayer = new Map<Layer, number>();
  const byFunction = new Map<string, FunctionTime>();
  let busyMicros = 0;
  let time = profile.startTime;
  profile.samples.forEach((nodeId, index) => {
    const micros = profile.timeDeltas[index] ?? 0;
    time += micros;
    if (span && (time <= span.fromMicros || time > span.toMicros)) return;
    const charge = charges.get(nodeId);
    if (charge === undefined) return;
    busyMicros += micros;
    byLayer.set(charge.layer, (byLayer.get(charge.layer) ?? 0) + micros);
    const functionName = charge.frame.functionName || '(anonymous)';
    const location = shortLocation(charge.frame);
    const key = `${charge.layer}\n${functionName}\n${location}`;
    const known = byFunction.get(key);
    byFunction.set(key, { layer: charge.layer, functionName, location, micros: (known?.micros ?? 0) + micros });
  });
  const functions = [...byFunction.values()].sort((a, b) => b.micros - a.micros);
  return { busyMicros, byLayer, functions };
}

/**
 * Each node's charge (none for idle): its own layer, given the layers below it on the stack, or for a
 * native no rule names its caller's charge; `other` at the root. Walked from the roots down.
 */
function chargesOf(nodes: readonly ProfileNode[]): Map<number, Charge> {
  const byId = new Map(nodes.map((node) => [node.id, node]));
  const children = new Set(nodes.flatMap((node) => node.children ?? []));
  const charges = new Map<number, Charge>();
  const pending = nodes.filter((node) => !children.has(node.id)).map((node) => ({ node, below: new Set<Layer>(), caller: undefined as Charge | undefined }));
  for (let next = pending.pop(); next; next = pending.pop()) {
    const { node, below, caller } = next;
    const layer = layerOfFrame(node.callFrame, below);
    const charge = layer ? { layer, frame: node.callFrame } : (caller ?? { layer: 'other', frame: node.callFrame });
    if (!(node.callFrame.functionName === IDLE && node.callFrame.url === '')) charges.set(node.id, charge);
    const belowChildren = layer && !below.has(layer) ? new Set([...below, layer]) : below;
    for (const child of (node.children ?? []).flatMap((id) => byId.get(id) ?? [])) pending.push({ node: child, below: belowChildren, caller: charge });
  }
  return charges;
}
