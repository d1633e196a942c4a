// The reference model for the property test costing-each-fragment-once-costs-as-the-per-page-size-walk:
// the cost walk as it was before issue 35's review (commit caace29), which walks each field again for
// every page size it is reached under. Its results are the documented model; its work is not linear
// (a large fragment spread under 330 connections of distinct page sizes is walked 330 times), which
// is why server/src/graphql/query-cost.ts no longer walks this way. Kept here, in tests only, so the
// linear walk can be checked against it on any document.
import { getNamedType, getNullableType, isCompositeType, isLeafType, isListType, Kind, type FieldNode, type GraphQLCompositeType, type SelectionSetNode } from 'graphql';
import { fieldDefinition, MAX_COST, paginationOf, type CostInput } from '../../../server/src/graphql/query-cost';
import { isIncluded } from '../../../server/src/graphql/root-fields';

const add = (a: number, b: number): number => Math.min(MAX_COST, a + b);
const multiply = (a: number, b: number): number => Math.min(MAX_COST, a * b);

export class PerPageSizeQueryCost {
  private readonly fragmentCosts = new Map<string, number>();

  constructor(private readonly input: CostInput) {}

  field(node: FieldNode, parent: GraphQLCompositeType | undefined, inherited: number | undefined): number {
    const { schema } = this.input;
    if (node.name.value === '__typename') return 0;
    const definition = schema && parent ? fieldDefinition(schema, parent, node.name.value) : undefined;
    const own = paginationOf(node, this.input.variables, this.input);
    if (!definition) {
      if (!node.selectionSet) return 0;
      return multiply(add(1, this.selections(node.selectionSet, undefined, undefined)), own ?? inherited ?? this.input.defaultLimit);
    }
    const named = getNamedType(definition.type);
    if (isLeafType(named)) return 0;
    const child = isCompositeType(named) ? named : undefined;
    if (isListType(getNullableType(definition.type))) return multiply(add(1, this.selections(node.selectionSet, child, undefined)), own ?? inherited ?? this.input.defaultLimit);
    return add(1, this.selections(node.selectionSet, child, own));
  }

  private selections(selectionSet: SelectionSetNode | undefined, parent: GraphQLCompositeType | undefined, inherited: number | undefined, spread = new Set<string>()): number {
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
