// The charges of operations already costed, so that a remembered document sent again (by its
// persisted hash, or many times in one batch) is not walked again. An operation's charges depend on
// its document, the schema it was costed against, and the values of the variables its cost walk read
// (the page sizes: query-cost.ts records them); a variable it declares but the walk never reads
// changes nothing (review of issue 35: declaring an unused `$v` brought the walk back, and a 3 KB
// batch of 20 hashes of a 35 KB document cost 87.5 ms of CPU per request, 74 ms for a caller already
// refused, against 2.16 ms without `$v`). So an operation whose walk read no variable keeps its charges
// beside its parsed document (they go when the document is forgotten), and one that read some keeps
// them by those variables' values, in one LRU of bounded entries and key length: a page size a client
// sends again is costed once, and a caller sending ever new values is bounded by the walk budget of
// each request (graphql-charges.ts), not by this cache.
import type { GraphQLSchema, OperationDefinitionNode } from 'graphql';
import { variableValue, walkInputOf } from './query-cost';

/** Charges remembered by variable values: at most this many, keyed by at most this many characters of values. */
const VALUE_ENTRIES = 1000;
const VALUE_KEY_LENGTH = 256;

interface Costed {
  readonly schema: GraphQLSchema | undefined;
  /** The variables the walk read, sorted; none: `charges` hold for every request. */
  readonly variables: readonly string[];
  readonly charges: readonly number[] | undefined;
  /** Names this operation in the keys of `byValues`. */
  readonly id: number;
}

export class RememberedCharges {
  private readonly operations = new WeakMap<OperationDefinitionNode, Costed>();
  /** `<operation id>:<what the walk reads of each variable>` to charges, least recently used first. */
  private readonly byValues = new Map<string, readonly number[]>();
  private nextId = 0;

  /** The charges of `operation` against `schema` with these variables (their defaults applied), when remembered. */
  find(operation: OperationDefinitionNode, schema: GraphQLSchema | undefined, variables: Readonly<Record<string, unknown>>): readonly number[] | undefined {
    const costed = this.operations.get(operation);
    if (costed === undefined || costed.schema !== schema) return undefined;
    if (costed.charges !== undefined) return costed.charges;
    const key = this.keyOf(costed, variables);
    const charges = key === undefined ? undefined : this.byValues.get(key);
    if (key !== undefined && charges !== undefined) {
      // Most recently used last: the first entry is the one to forget.
      this.byValues.delete(key);
      this.byValues.set(key, charges);
    }
    return charges;
  }

  /** Remembers what a complete walk charged, having read the variables `read`. */
  remember(operation: OperationDefinitionNode, schema: GraphQLSchema | undefined, read: ReadonlySet<string>, variables: Readonly<Record<string, unknown>>, charges: readonly number[]): void {
    let costed = this.operations.get(operation);
    if (costed === undefined || costed.schema !== schema) {
      // The walk reads the same variables whatever their values: which fields it costs depends on the document and the schema only.
      costed = { schema, variables: [...read].sort(), charges: read.size === 0 ? charges : undefined, id: this.nextId++ };
      this.operations.set(operation, costed);
    }
    const key = costed.charges === undefined ? this.keyOf(costed, variables) : undefined;
    if (key === undefined) return;
    if (this.byValues.size >= VALUE_ENTRIES) this.byValues.delete(this.byValues.keys().next().value as string);
    this.byValues.set(key, charges);
  }

  /**
   * The key of what the walk can read of these variables' values (query-cost.ts walkInputOf: never
   * the whole value, which may be nested past any stack), or undefined past VALUE_KEY_LENGTH.
   */
  private keyOf(costed: Costed, variables: Readonly<Record<string, unknown>>): string | undefined {
    const key = `${costed.id}:${costed.variables.map((name) => walkInputOf(variableValue(variables, name))).join(';')}`;
    return key.length <= VALUE_KEY_LENGTH ? key : undefined;
  }
}
