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
// Fragments are costed once per page size they are spread under (memoized), and each fragment name
// counts once per selection set, as graphql-js collects it, so the work is linear in the document;
// the numbers saturate at MAX_COST, far above any budget (MAX_TOKENS), so no sum overflows.
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
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** A page size as Strapi applies it (pagination.ts in @strapi/utils: at least 1, -1 for maxLimit, capped at maxLimit). */
function pageSize(value: unknown, limits: PageLimits): number {
  const unbounded = limits.maxLimit > 0 ? limits.maxLimit : MAX_COST;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) return unbounded;
  return Math.min(Math.max(value, 1), unbounded);
}

/** The JS value of an argument's literal or variable: numbers, objects; anything else unknown (`NaN`). */
function valueOf(node: ValueNode, variables: Readonly<Record<string, unknown>>): unknown {
  if (node.kind === Kind.VARIABLE) return variables[node.name.value];
  if (node.kind === Kind.INT) return Number(node.value);
  if (node.kind === Kind.NULL) return null;
  if (node.kind === Kind.OBJECT) {
    const object: Record<string, unknown> = {};
    for (const field of node.fields) if (field.name.value === 'pageSize' || field.name.value === 'limit') object[field.name.value] = valueOf(field.value, variables);
    return object;
  }
  return Number.NaN;
}

/** A field's page size from its `pagination` argument, or undefined when it gives none. */
export function paginationOf(field: FieldNode, variables: Readonly<Record<string, unknown>>, limits: PageLimits): number | undefined {
  const argument = field.arguments?.find((candidate) => candidate.name.value === 'pagination');
  if (!argument) return undefined;
  const pagination = valueOf(argument.value, variables);
  if (pagination === null || pagination === undefined) return undefined;
  if (!isRecord(pagination)) return pageSize(Number.NaN, limits);
  const size = pagination.pageSize ?? pagination.limit;
  return size === undefined || size === null ? undefined : pageSize(size, limits);
}

/** The definition of a field of `parent`, as graphql-js's TypeInfo finds it (meta fields included). */
function fieldDefinition(schema: GraphQLSchema, parent: GraphQLCompositeType, name: string): GraphQLField<unknown, unknown> | undefined {
  if (parent === schema.getQueryType()) {
    if (name === SchemaMetaFieldDef.name) return SchemaMetaFieldDef;
    if (name === TypeMetaFieldDef.name) return TypeMetaFieldDef;
  }
  return isObjectType(parent) || isInterfaceType(parent) ? parent.getFields()[name] : undefined;
}

/** Costs the fields of one request's operation against its schema and variables. */
export class QueryCost {
  private readonly fragmentCosts = new Map<string, number>();

  constructor(private readonly input: CostInput) {}

  /** What one field costs under `parent` (its type; undefined when unknown), with the page size its parent gives its lists. */
  field(node: FieldNode, parent: GraphQLCompositeType | undefined, inherited: number | undefined): number {
    const { schema } = this.input;
    if (node.name.value === '__typename') return 0;
    const definition = schema && parent ? fieldDefinition(schema, parent, node.name.value) : undefined;
    const own = paginationOf(node, this.input.variables, this.input);
    if (!definition) {
      // Unknown type: a field with selections is taken for a list (see the file header).
      if (!node.selectionSet) return 0;
      return multiply(add(1, this.selections(node.selectionSet, undefined, undefined)), own ?? inherited ?? this.input.defaultLimit);
    }
    const named = getNamedType(definition.type);
    if (isLeafType(named)) return 0;
    const child = isCompositeType(named) ? named : undefined;
    if (isListType(getNullableType(definition.type))) return multiply(add(1, this.selections(node.selectionSet, child, undefined)), own ?? inherited ?? this.input.defaultLimit);
    return add(1, this.selections(node.selectionSet, child, own));
  }

  /** What a selection set costs: each field, inline fragments inline, each fragment name once. */
  selections(selectionSet: SelectionSetNode | undefined, parent: GraphQLCompositeType | undefined, inherited: number | undefined, spread = new Set<string>()): number {
    if (!selectionSet) return 0;
    let cost = 0;
    for (const selection of selectionSet.selections) {
      if (!isIncluded(selection.directives)) continue;
      if (selection.kind === Kind.FIELD) cost = add(cost, this.field(selection, parent, inherited));
      else if (selection.kind === Kind.INLINE_FRAGMENT) cost = add(cost, this.selections(selection.selectionSet, this.typeNamed(selection.typeCondition?.name.value) ?? parent, inherited, spread));
      else if (!spread.has(selection.name.value)) {
        spread.add(selection.name.value);
        cost = add(cost, this.fragment(selection.name.value, parent, inherited));
      }
    }
    return cost;
  }

  private fragment(name: string, parent: GraphQLCompositeType | undefined, inherited: number | undefined): number {
    const key = `${name}\u0000${inherited ?? ''}`;
    const known = this.fragmentCosts.get(key);
    if (known !== undefined) return known;
    const fragment = this.input.fragments.get(name);
    // Cycles were refused when the document was read (parsed-documents.ts); this guards the memo anyway.
    this.fragmentCosts.set(key, 0);
    const cost = fragment ? this.selections(fragment.selectionSet, this.typeNamed(fragment.typeCondition.name.value) ?? (this.input.schema ? undefined : parent), inherited) : 0;
    this.fragmentCosts.set(key, cost);
    return cost;
  }

  private typeNamed(name: string | undefined): GraphQLCompositeType | undefined {
    const type = name === undefined ? undefined : this.input.schema?.getType(name);
    return type && isCompositeType(type) ? type : undefined;
  }
}
