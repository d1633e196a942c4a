// Issue 35 review, finding "the cost walk must be linear": the cost walk costs each field and each
// fragment once, as a fixed part and a part per page item its parent gives, where it walked a
// fragment again for every page size it was spread under. The costs must not change: for any
// document of fields (known to the schema or not, paginated by literals, variables or nothing),
// aliases, inline fragments, fragment spreads, @skip/@include, with or without a schema, any
// defaultLimit and maxLimit (0: none, so costs saturate at MAX_COST), the linear walk gives every
// root field the cost the per-page-size walk (per-page-size-query-cost.ts) gives.
import fc from 'fast-check';
import { Kind, parse, type FragmentDefinitionNode, type OperationDefinitionNode } from 'graphql';
import { QueryCost, type CostInput } from '../../../server/src/graphql/query-cost';
import { rootFields } from '../../../server/src/graphql/root-fields';
import { PerPageSizeQueryCost } from './per-page-size-query-cost';
import { schema } from './support';

type Selection =
  | { readonly kind: 'field'; readonly name: string; readonly alias: boolean; readonly pagination: string; readonly directive: string; readonly children: readonly Selection[] | undefined }
  | { readonly kind: 'inline'; readonly condition: string; readonly directive: string; readonly children: readonly Selection[] }
  | { readonly kind: 'spread'; readonly fragment: number; readonly directive: string };

const FRAGMENTS = 4;
const FIELD_NAMES = ['articles', 'articles_connection', 'nodes', 'pageInfo', 'total', 'author', 'me', 'name', 'title', 'tags', 'mystery', '__typename', '__schema', 'types', 'login', 'jwt'];
const TYPE_NAMES = ['Article', 'Author', 'ArticleConnection', 'Query', 'Mutation', 'Nope'];
const DIRECTIVES = ['', '', '', ' @skip(if: true)', ' @include(if: false)', ' @skip(if: false)', ' @include(if: $flag)'];
const pagination = fc.oneof(
  fc.constantFrom('', '', '(pagination: { pageSize: $n })', '(pagination: $p)', '(pagination: { limit: 3 })', '(pagination: { page: 2 })', '(pagination: null)', '(pagination: "x")', '(pagination: { pageSize: 100000 })'),
  fc.integer({ min: -2, max: 300 }).map((size) => `(pagination: { pageSize: ${size} })`),
);
const directive = fc.constantFrom(...DIRECTIVES);

const { selections } = fc.letrec<{ selections: readonly Selection[]; selection: Selection }>((tie) => ({
  selections: fc.array(tie('selection'), { minLength: 1, maxLength: 4 }),
  selection: fc.oneof(
    { depthSize: 'small' },
    fc.record({ kind: fc.constant('field' as const), name: fc.constantFrom(...FIELD_NAMES), alias: fc.boolean(), pagination, directive, children: fc.constant(undefined) }),
    fc.record({ kind: fc.constant('spread' as const), fragment: fc.nat(FRAGMENTS - 1), directive }),
    fc.record({ kind: fc.constant('field' as const), name: fc.constantFrom(...FIELD_NAMES), alias: fc.boolean(), pagination, directive, children: tie('selections') }),
    fc.record({ kind: fc.constant('inline' as const), condition: fc.constantFrom('', ...TYPE_NAMES.map((name) => ` on ${name}`)), directive, children: tie('selections') }),
  ),
}));

let aliases = 0;
/** The text of selections; inside fragment `within`, only later fragments are spread (no cycles). */
function text(items: readonly Selection[], within: number): string {
  const kept = items.filter((item) => item.kind !== 'spread' || item.fragment > within);
  if (kept.length === 0) return '__typename';
  return kept
    .map((item) => {
      if (item.kind === 'spread') return `...F${item.fragment}${item.directive}`;
      if (item.kind === 'inline') return `...${item.condition}${item.directive} { ${text(item.children, within)} }`;
      return `${item.alias ? `a${aliases++}: ` : ''}${item.name}${item.pagination}${item.directive}${item.children ? ` { ${text(item.children, within)} }` : ''}`;
    })
    .join(' ');
}

const documents = fc.record({
  body: selections,
  fragments: fc.tuple(...Array.from({ length: FRAGMENTS }, () => fc.record({ on: fc.constantFrom(...TYPE_NAMES), body: selections }))),
});

const limits = fc.record({
  withSchema: fc.boolean(),
  defaultLimit: fc.constantFrom(1, 25),
  maxLimit: fc.constantFrom(0, 100),
  variables: fc.record({ n: fc.constantFrom(-1, 0, 7, 1000, 'x', null), p: fc.constantFrom(null, 5, { pageSize: 9 }, { limit: 4 }, { pageSize: 'x' }), flag: fc.boolean() }, { requiredKeys: [] }),
  inherited: fc.constantFrom(undefined, 1, 40),
});

describe('the linear cost walk', () => {
  it('gives every root field the cost of the walk per page size, saturation included', () => {
    fc.assert(
      fc.property(documents, limits, (document, { withSchema, defaultLimit, maxLimit, variables, inherited }) => {
        const fragmentText = document.fragments.map((fragment, index) => `fragment F${index} on ${fragment.on} { ${text(fragment.body, index)} }`).join(' ');
        const parsed = parse(`query ($n: Int, $p: PaginationArg, $flag: Boolean) { ${text(document.body, -1)} } ${fragmentText}`, { noLocation: true });
        const operation = parsed.definitions.find((definition): definition is OperationDefinitionNode => definition.kind === Kind.OPERATION_DEFINITION)!;
        const fragments = new Map(parsed.definitions.filter((definition): definition is FragmentDefinitionNode => definition.kind === Kind.FRAGMENT_DEFINITION).map((fragment) => [fragment.name.value, fragment]));
        const input: CostInput = { schema: withSchema ? schema : undefined, variables, fragments, defaultLimit, maxLimit };
        const roots = [...rootFields(operation, fragments).values()].flat();
        const rootType = withSchema ? schema.getQueryType()! : undefined;
        // One linear walk for all root fields (its memo shared, as several cost strategies share it), asked twice.
        const linear = new QueryCost(input);
        const costs = roots.map((node) => linear.field(node, rootType, inherited));
        expect([costs, roots.map((node) => linear.field(node, rootType, inherited))]).toEqual([roots.map((node) => new PerPageSizeQueryCost(input).field(node, rootType, inherited)), costs]);
      }),
      { numRuns: 500 },
    );
  });
});
