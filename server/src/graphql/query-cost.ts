// The cost model of `charge: 'cost'` (docs/graphql.md, "Cost"), in the spirit of GitHub's and
// Shopify's calculated query cost, computed before anything runs:
// - a leaf field (scalar or enum, `__typename`) costs 0;
// - an object field costs 1 plus what its selections cost;
// - a list field costs its page size times that (each object it may return is a point), so nested
//   lists multiply;
// - the page size is the field's `pagination: { pageSize | limit }` argument (a literal or from the
//   variables), else the `defaultLimit`, capped at `maxLimit` as Strapi caps it; `-1` and values
//   that are not whole numbers or are negative mean `maxLimit` (unbounded without one); 0 means 1, as Strapi reads it.
//   An object field with a `pagination` argument (Strapi's `<name>_connection`) gives its page size
//   to the lists right under it (`nodes`).
// - Without a schema the field types are unknown, and every field with selections is taken for a
//   list (an upper bound: `author { name }` costs a page of authors).
// Each fragment name counts once per selection set, as graphql-js collects it.
// The walk is linear in the document: what a selection set costs is affine in the page size p its
// parent gives its lists, fixed + perPage x (p ?? defaultLimit), perPage summing the lists right in
// it (through inline fragments and spreads) that give no page size of their own. So each field and
// each fragment is costed once, as that pair, whatever page size it is spread under, and the pair is
// remembered for the operation, so several cost strategies do not walk it again. (Costing fragments
// once per page size walked a fragment of 626 selections again under each of 330 connections of
// distinct page sizes: 206,580 selections for a document of 5,300 tokens.) The numbers saturate at MAX_COST, far
// above any budget (MAX_TOKENS), so no sum overflows; every term is a whole number and every page
// size at least 1, so the pair saturates exactly where the sum it stands for does.
// The walk records the variables it reads, so the charges can be remembered by their values alone
// (remembered-charges.ts), and reads at most the selections its request's budget leaves
// (graphql-charges.ts): a batch naming a document by hash with ever new page sizes cannot multiply it.
import {
  getNamedType,
  getNullableType,
  isCompositeType,
  isInterfaceType,
  isLeafType,
  isListType,
  isObjectType,
  Kind,
  SchemaMetaFieldDef,
  TypeMetaFieldDef,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLCompositeType,
  type GraphQLField,
  type GraphQLSchema,
  type SelectionSetNode,
  type ValueNode,
} from 'graphql';
import { isIncluded } from './root-fields';

/** Above every budget (tokens are at most 10^9): a request costing this much is refused as too costly. */
export const MAX_COST = 2 ** 40;

const add = (a: number, b: number): number => Math.min(MAX_COST, a + b);
const multiply = (a: number, b: number): number => Math.min(MAX_COST, a * b);

/** How list sizes are read (the GraphQL plugin's defaultLimit and maxLimit; maxLimit <= 0 is none). */
export interface PageLimits {
  readonly defaultLimit: number;
  readonly maxLimit: number;
}

export interface CostInput extends PageLimits {
  /** The app's schema, when known: field types decide leaves, objects and lists. */
  readonly schema: GraphQLSchema | undefined;
  readonly variables: Readonly<Record<string, unknown>>;
  readonly fragments: ReadonlyMap<string, FragmentDefinitionNode>;
  /** The selections the walks of one request may still read, shared by its operations (graphql-charges.ts); below 0, the walk stopped and its costs mean nothing. */
  readonly budget?: WalkBudget;
}

export interface WalkBudget {
  left: number;
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** A page size as Strapi applies it (pagination.ts in @strapi/utils: at least 1, -1 for maxLimit, capped at maxLimit). */
function pageSize(value: unknown, limits: PageLimits): number {
  const unbounded = limits.maxLimit > 0 ? limits.maxLimit : MAX_COST;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) return unbounded;
  return Math.min(Math.max(value, 1), unbounded);
}

/** What the walk can read of a page size: a number, none (null or absent: alike to `??`), or anything else (an unbounded page, alike). */
const pageSizeInputOf = (value: unknown): string => {
  if (value === undefined || value === null) return 'none';
  // -0 and 0 are one page size; a number's text is bounded (at most some 25 characters).
  return typeof value === 'number' ? String(value === 0 ? 0 : value) : 'other';
};

/**
 * What the cost walk can read of a variable's value, as text: a page size (`pageSize: $n`), or a
 * pagination object's `pageSize` and `limit` (`pagination: $p`); two values with the same text cost
 * the same wherever the variable is used (remembered-charges.ts keys charges by it). Built from those
 * two fields only, without recursion: a value nested 10,000 arrays deep overflowed JSON.stringify.
 */
export const walkInputOf = (value: unknown): string => (isRecord(value) ? `{${pageSizeInputOf(value.pageSize)},${pageSizeInputOf(value.limit)}}` : pageSizeInputOf(value));

/** A variable's value; one the request does not give (an inherited name such as `constructor` included) is undefined. */
export const variableValue = (variables: Readonly<Record<string, unknown>>, name: string): unknown => (Object.hasOwn(variables, name) ? variables[name] : undefined);

/** The JS value of an argument's literal or variable (its name added to `read`): numbers, objects; anything else unknown (`NaN`). */
function valueOf(node: ValueNode, variables: Readonly<Record<string, unknown>>, read: Set<string> | undefined): unknown {
  if (node.kind === Kind.VARIABLE) {
    read?.add(node.name.value);
    return variableValue(variables, node.name.value);
  }
  if (node.kind === Kind.INT) return Number(node.value);
  if (node.kind === Kind.NULL) return null;
  if (node.kind === Kind.OBJECT) {
    const object: Record<string, unknown> = {};
    for (const field of node.fields) if (field.name.value === 'pageSize' || field.name.value === 'limit') object[field.name.value] = valueOf(field.value, variables, read);
    return object;
  }
  return Number.NaN;
}

/** A field's page size from its `pagination` argument, or undefined when it gives none; the variables it reads are added to `read`. */
export function paginationOf(field: FieldNode, variables: Readonly<Record<string, unknown>>, limits: PageLimits, read?: Set<string>): number | undefined {
  const argument = field.arguments?.find((candidate) => candidate.name.value === 'pagination');
  if (!argument) return undefined;
  const pagination = valueOf(argument.value, variables, read);
  if (pagination === null || pagination === undefined) return undefined;
  if (!isRecord(pagination)) return pageSize(Number.NaN, limits);
  const size = pagination.pageSize ?? pagination.limit;
  return size === undefined || size === null ? undefined : pageSize(size, limits);
}

/** The definition of a field of `parent`, as graphql-js's TypeInfo finds it (meta fields included). */
export function fieldDefinition(schema: GraphQLSchema, parent: GraphQLCompositeType, name: string): GraphQLField<unknown, unknown> | undefined {
  if (parent === schema.getQueryType()) {
    if (name === SchemaMetaFieldDef.name) return SchemaMetaFieldDef;
    if (name === TypeMetaFieldDef.name) return TypeMetaFieldDef;
  }
  return isObjectType(parent) || isInterfaceType(parent) ? parent.getFields()[name] : undefined;
}

/** What selections cost as a function of the page size p their parent gives: fixed + perPage x (p ?? defaultLimit). */
interface PagedCost {
  readonly fixed: number;
  readonly perPage: number;
}

const FREE: PagedCost = { fixed: 0, perPage: 0 };

const sum = (a: PagedCost, b: PagedCost): PagedCost => ({ fixed: add(a.fixed, b.fixed), perPage: add(a.perPage, b.perPage) });

/** Costs the fields of one request's operation against its schema and variables, each field and fragment once. */
export class QueryCost {
  private readonly fragmentCosts = new Map<string, PagedCost>();
  /** By the parent type a field is costed under (one per field in a document; the map keeps the model exact if not). */
  private readonly fieldCosts = new Map<GraphQLCompositeType | undefined, Map<FieldNode, PagedCost>>();
  /** The variables the walk read (page sizes): the costs depend on the document, the schema and these variables' values alone. */
  readonly variablesRead = new Set<string>();

  constructor(private readonly input: CostInput) {}

  /** What one field costs under `parent` (its type; undefined when unknown), with the page size its parent gives its lists. */
  field(node: FieldNode, parent: GraphQLCompositeType | undefined, inherited: number | undefined): number {
    return this.under(this.fieldCost(node, parent), inherited);
  }

  private under(cost: PagedCost, pageSize: number | undefined): number {
    return add(cost.fixed, multiply(cost.perPage, pageSize ?? this.input.defaultLimit));
  }

  private fieldCost(node: FieldNode, parent: GraphQLCompositeType | undefined): PagedCost {
    let known = this.fieldCosts.get(parent);
    if (!known) this.fieldCosts.set(parent, (known = new Map()));
    let cost = known.get(node);
    if (!cost) known.set(node, (cost = this.costField(node, parent)));
    return cost;
  }

  private costField(node: FieldNode, parent: GraphQLCompositeType | undefined): PagedCost {
    const { schema } = this.input;
    if (node.name.value === '__typename') return FREE;
    const definition = schema && parent ? fieldDefinition(schema, parent, node.name.value) : undefined;
    const own = paginationOf(node, this.input.variables, this.input, this.variablesRead);
    if (!definition) {
      // Unknown type: a field with selections is taken for a list (see the file header).
      return node.selectionSet ? this.list(this.selections(node.selectionSet, undefined), own) : FREE;
    }
    const named = getNamedType(definition.type);
    if (isLeafType(named)) return FREE;
    const child = isCompositeType(named) ? named : undefined;
    if (isListType(getNullableType(definition.type))) return this.list(this.selections(node.selectionSet, child), own);
    // An object gives its own page size (a connection's) to the lists right under it.
    return { fixed: add(1, this.under(this.selections(node.selectionSet, child), own)), perPage: 0 };
  }

  /** A list of items costing `item`: a fixed cost with its own page size, else a cost per page item its parent gives. */
  private list(item: PagedCost, own: number | undefined): PagedCost {
    const each = add(1, this.under(item, undefined));
    return own === undefined ? { fixed: 0, perPage: each } : { fixed: multiply(each, own), perPage: 0 };
  }

  /** What a selection set costs: each field, inline fragments inline, each fragment name once. */
  private selections(selectionSet: SelectionSetNode | undefined, parent: GraphQLCompositeType | undefined, spread = new Set<string>()): PagedCost {
    if (!selectionSet) return FREE;
    let cost = FREE;
    const { budget } = this.input;
    for (const selection of selectionSet.selections) {
      if (budget && --budget.left < 0) return FREE;
      if (!isIncluded(selection.directives)) continue;
      if (selection.kind === Kind.FIELD) cost = sum(cost, this.fieldCost(selection, parent));
      else if (selection.kind === Kind.INLINE_FRAGMENT) cost = sum(cost, this.selections(selection.selectionSet, this.typeNamed(selection.typeCondition?.name.value) ?? parent, spread));
      else if (!spread.has(selection.name.value)) {
        spread.add(selection.name.value);
        cost = sum(cost, this.fragment(selection.name.value));
      }
    }
    return cost;
  }

  /** A fragment's cost, once per operation: its parent is its type condition (without a schema, no type is known anywhere). */
  private fragment(name: string): PagedCost {
    const known = this.fragmentCosts.get(name);
    if (known) return known;
    const fragment = this.input.fragments.get(name);
    // Cycles were refused when the document was read (parsed-documents.ts); this guards the memo anyway.
    this.fragmentCosts.set(name, FREE);
    const cost = fragment ? this.selections(fragment.selectionSet, this.typeNamed(fragment.typeCondition.name.value)) : FREE;
    this.fragmentCosts.set(name, cost);
    return cost;
  }

  private typeNamed(name: string | undefined): GraphQLCompositeType | undefined {
    const type = name === undefined ? undefined : this.input.schema?.getType(name);
    return type && isCompositeType(type) ? type : undefined;
  }
}
