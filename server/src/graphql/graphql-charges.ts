// What a request at the GraphQL endpoint takes from each GraphQL strategy (docs/graphql.md): its
// operations read once (graphql-request.ts), their documents parsed once within the bounds
// (parsed-documents.ts), then per strategy the executions of its root fields in the operations that
// run (`charge: 'count'`, root-fields.ts) or their cost (`charge: 'cost'`, query-cost.ts), summed over
// a batch; a strategy naming every root field of a type (`*`) takes at least 1 from each operation of
// it. An operation the plugin cannot attribute to fields (no query text, a syntax error left to
// Apollo, an operationName that names nothing, a subscription) takes 1 from every GraphQL strategy: it
// runs nothing, and a flood of them is still limited. A request the plugin refuses to read (a body that is not
// JSON, of another content type, too large, too slow; a document past a bound) takes 1 too and,
// when admitted, is answered with the reason by the plugin itself. This module loads graphql-js; load-graphql.ts loads it only
// for a config with GraphQL strategies.
import type { Context } from 'koa';
import { valueFromASTUntyped, type FieldNode, type GraphQLCompositeType, type GraphQLSchema, type OperationDefinitionNode } from 'graphql';
import type { GraphqlBounds, GraphqlSelection } from '../config/graphql-schema';
import { hidePersistedHash, readOperations, UnreadableRequest, type OperationRequest } from './graphql-request';
import { ParsedDocuments } from './parsed-documents';
import { QueryCost, MAX_COST, type PageLimits, type WalkBudget } from './query-cost';
import { RememberedCharges } from './remembered-charges';
import { rootFields, selectOperation } from './root-fields';

/** Where the GraphQL plugin answers, and how it pages lists (RateLimitMiddlewareOptions.graphql). */
export interface GraphqlEndpoint extends PageLimits {
  readonly endpoint: string;
  /** The app's schema once built (the Strapi GraphQL plugin's), for the cost model's field types. */
  readonly schema?: () => GraphQLSchema | undefined;
}

export type RequestCharges =
  /** Per GraphQL strategy (in the order given), the tokens the request takes; 0: the strategy does not apply. */
  | { readonly kind: 'charged'; readonly charges: readonly number[] }
  /** The plugin answers the request itself once the strategies admit it (each charged `charges`). */
  | { readonly kind: 'answer'; readonly charges: readonly number[]; readonly status: number; readonly message: string; readonly code: string; readonly headers?: Readonly<Record<string, string>> };

/**
 * The variables as graphql-js runs the operation: a variable the request does not give takes its
 * declared default (`query ($n: Int = 100000)` sent without `n` pages 100,000 rows, not defaultLimit).
 * Copied into an object without a prototype, as graphql-js keeps them (coerceVariableValues): in a
 * plain object, the default of `$__proto__` was assigned to the prototype's setter, which kept
 * nothing, and the page size it runs was costed as none (issue 35, hardening: 25 for 60 rows).
 */
function withDefaults(operation: OperationDefinitionNode, given: Readonly<Record<string, unknown>>): Readonly<Record<string, unknown>> {
  let variables: Record<string, unknown> | undefined;
  for (const definition of operation.variableDefinitions ?? []) {
    const name = definition.variable.name.value;
    if (definition.defaultValue === undefined || Object.hasOwn(given, name)) continue;
    variables ??= Object.assign(Object.create(null) as Record<string, unknown>, given);
    variables[name] = valueFromASTUntyped(definition.defaultValue);
  }
  return variables ?? given;
}

/** What an operation charged only by count (no cost walk) reads of its variables. */
const NO_VARIABLES: ReadonlySet<string> = new Set();

// A sum that is not a number would make a strategy not apply: anything but a number counts as MAX_COST.
const add = (a: number, b: number): number => (Number.isNaN(a + b) ? MAX_COST : Math.min(MAX_COST, a + b));

/** The `extensions.code` of the plugin's answer to a request it does not read, by its status. */
const UNREADABLE_CODES = { 400: 'BAD_REQUEST', 408: 'REQUEST_TIMEOUT', 413: 'PAYLOAD_TOO_LARGE', 415: 'UNSUPPORTED_MEDIA_TYPE' } as const;

export class GraphqlCharges {
  private readonly documents: ParsedDocuments;
  private readonly ones: readonly number[];
  /**
   * Apollo's own answer to a hash it does not know, with its Cache-Control (a CDN must not keep it for a
   * GET): the client sends the text again, which is read then. It runs nothing, so it takes nothing
   * from GraphQL strategies.
   */
  private readonly persistedQueryNotFound: RequestCharges;
  /** Each operation's root fields, found once per remembered document (they depend on nothing else). */
  private readonly fieldsOf = new WeakMap<OperationDefinitionNode, Map<string, FieldNode[]>>();
  /** Operations costed before, so a document sent again, by its persisted hash or 20 times in one batch, is not walked again (remembered-charges.ts). */
  private readonly remembered = new RememberedCharges();
  /** The answer to a request whose cost walks would read more selections than its budget: 1 from every strategy, as for a document past a bound. */
  private readonly pastWalkBudget: RequestCharges;
  /** Each strategy's field names by operation type, as sets ('*' kept as a name). */
  private readonly names: ReadonlyArray<Partial<Record<'query' | 'mutation', ReadonlySet<string>>>>;

  constructor(
    private readonly selections: readonly GraphqlSelection[],
    private readonly bounds: GraphqlBounds,
    private readonly endpoint: GraphqlEndpoint,
  ) {
    this.documents = new ParsedDocuments(bounds);
    this.ones = selections.map(() => 1);
    this.persistedQueryNotFound = {
      kind: 'answer',
      charges: selections.map(() => 0),
      status: 200,
      message: 'PersistedQueryNotFound',
      code: 'PERSISTED_QUERY_NOT_FOUND',
      headers: { 'Cache-Control': 'private, no-cache, must-revalidate' },
    };
    this.pastWalkBudget = {
      kind: 'answer',
      charges: this.ones,
      status: 400,
      message: `The operations of this request have more than ${bounds.maxTokens} selections to cost together (graphql.maxTokens): send fewer or smaller operations in one request`,
      code: 'GRAPHQL_VALIDATION_FAILED',
    };
    this.names = selections.map((selection) => ({ query: selection.query && new Set(selection.query), mutation: selection.mutation && new Set(selection.mutation) }));
  }

  /** The request's charges; never rejects (what cannot be read becomes an answer). */
  async charge(ctx: Context): Promise<RequestCharges> {
    let operations: OperationRequest[];
    try {
      operations = await readOperations(ctx, this.bounds);
    } catch (failure) {
      if (failure instanceof UnreadableRequest) return { kind: 'answer', charges: this.ones, status: failure.status, message: failure.message, code: UNREADABLE_CODES[failure.status] };
      throw failure;
    }
    const batch = Array.isArray(ctx.request.body);
    const charges = this.selections.map(() => 0);
    const schema = this.endpoint.schema?.();
    // The cost walks of one request read at most as many selections as one document within maxTokens can hold, however many operations name documents by hash (review of issue 35).
    const budget: WalkBudget = { left: this.bounds.maxTokens };
    for (const [index, operation] of operations.entries()) {
      const charged = this.chargeOperation(operation, schema, budget);
      // In a batch, an operation naming a document by a hash the plugin does not know is left to Apollo
      // under a hash no document can have, so Apollo answers it PersistedQueryNotFound in its place in
      // the batch's array and runs the others, charged here (review of issue 35: one answer object for
      // the whole batch failed every operation of a batching client). It takes nothing.
      if (charged === this.persistedQueryNotFound && batch) {
        hidePersistedHash(ctx, index);
        continue;
      }
      if (charged.kind === 'answer') return charged;
      charged.charges.forEach((charge, index) => (charges[index] = add(charges[index], charge)));
    }
    return { kind: 'charged', charges };
  }

  private chargeOperation(request: OperationRequest, schema: GraphQLSchema | undefined, budget: WalkBudget): RequestCharges {
    let parsed = request.query === undefined ? undefined : this.documents.parse(request.query);
    if (parsed === undefined && request.persistedHash !== undefined) {
      parsed = this.documents.remembered(request.persistedHash);
      if (parsed === undefined) return this.persistedQueryNotFound;
    }
    if (parsed === undefined || parsed.kind === 'unparsable') return { kind: 'charged', charges: this.ones };
    if (parsed.kind === 'refused') return { kind: 'answer', charges: this.ones, status: 400, message: parsed.message, code: 'GRAPHQL_VALIDATION_FAILED' };
    const selected = selectOperation(parsed.document.definitions, request.operationName);
    if ('problem' in selected) return { kind: 'charged', charges: this.ones };
    const { operation } = selected;
    const type = operation.operation;
    // Strapi serves no subscription: it runs nothing, as an operation that names none (Apollo still validates it).
    if (type === 'subscription') return { kind: 'charged', charges: this.ones };
    const variables = withDefaults(operation, request.variables);
    const known = this.remembered.find(operation, schema, variables);
    if (known !== undefined) return { kind: 'charged', charges: known };
    let fields = this.fieldsOf.get(operation);
    if (!fields) this.fieldsOf.set(operation, (fields = rootFields(operation, parsed.fragments)));
    const rootType: GraphQLCompositeType | undefined | null = type === 'query' ? schema?.getQueryType() : schema?.getMutationType();
    let cost: QueryCost | undefined;
    const charges = this.selections.map((selection, index) => {
      const names = this.names[index][type];
      if (!names) return 0;
      const every = names.has('*');
      let charge = 0;
      for (const nodes of fields.values()) {
        const counted = nodes.filter((node) => (every ? node.name.value !== '__typename' : names.has(node.name.value)));
        if (counted.length === 0) continue;
        if (selection.charge !== 'cost') {
          charge = add(charge, 1);
          continue;
        }
        // One QueryCost per operation: it remembers each field's cost, so the next cost strategy does not walk again.
        cost ??= new QueryCost({ schema, variables, fragments: parsed.fragments, defaultLimit: this.endpoint.defaultLimit, maxLimit: this.endpoint.maxLimit, budget });
        // Fields merged under one response key run once; their costs are added, an upper bound. A root field costs at least 1.
        for (const node of counted) charge = add(charge, Math.max(1, cost.field(node, rootType ?? undefined, undefined)));
      }
      // A budget for every root field of the type counts every operation of it, `{ __typename }` too:
      // Apollo parses and validates each (issue 35 hardening: 1,100 fragments of `__typename` spread
      // side by side took 85 ms to validate and nothing from `query: ['*']`).
      return every ? Math.max(1, charge) : charge;
    });
    if (budget.left < 0) return this.pastWalkBudget;
    this.remembered.remember(operation, schema, cost?.variablesRead ?? NO_VARIABLES, variables, charges);
    return { kind: 'charged', charges };
  }
}
