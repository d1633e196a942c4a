// Which root fields an operation executes, found as graphql-js's executor finds them (collectFields):
// the operation's selections, inline fragments and fragment spreads on the root type expanded (each
// fragment name once per operation, as graphql-js does), grouped by response key, since fields with
// one response key (`login` twice, unaliased) merge into one execution. The result is an upper bound
// of the resolver runs: `@skip` and `@include` exclude a selection only when their `if` is a literal
// (`@skip(if: true)`, `@include(if: false)`); one depending on a variable counts as included, and an
// inline fragment or spread counts whatever its type condition (on a root type, only the root type
// itself can match, and validation refuses the rest). Linear: each fragment is walked once.
import { Kind, type DirectiveNode, type FieldNode, type FragmentDefinitionNode, type OperationDefinitionNode, type SelectionSetNode } from 'graphql';

/** The operation a request runs: the one `operationName` names, or the document's only one. */
export type SelectedOperation = { readonly operation: OperationDefinitionNode } | { readonly problem: string };

export function selectOperation(definitions: readonly { readonly kind: string }[], operationName: string | undefined): SelectedOperation {
  const operations = definitions.filter((definition): definition is OperationDefinitionNode => definition.kind === Kind.OPERATION_DEFINITION);
  if (operationName !== undefined) {
    const named = operations.find((operation) => operation.name?.value === operationName);
    return named ? { operation: named } : { problem: `Unknown operation named "${operationName.slice(0, 64)}": operationName must name an operation of the document` };
  }
  if (operations.length === 1) return { operation: operations[0] };
  return { problem: operations.length === 0 ? 'This document has no operation to run' : 'This document has several operations: operationName must name the one to run' };
}

/** Whether a selection counts: excluded only by a literal `@skip(if: true)` or `@include(if: false)`. */
export function isIncluded(directives: readonly DirectiveNode[] | undefined): boolean {
  if (!directives) return true;
  for (const directive of directives) {
    const name = directive.name.value;
    if (name !== 'skip' && name !== 'include') continue;
    const condition = directive.arguments?.find((argument) => argument.name.value === 'if')?.value;
    if (condition?.kind === Kind.BOOLEAN && condition.value === (name === 'skip')) return false;
  }
  return true;
}

/** The operation's root fields by response key (an alias, else the field's name), in document order. */
export function rootFields(operation: OperationDefinitionNode, fragments: ReadonlyMap<string, FragmentDefinitionNode>): Map<string, FieldNode[]> {
  const fields = new Map<string, FieldNode[]>();
  const visited = new Set<string>();
  const collect = (selectionSet: SelectionSetNode): void => {
    for (const selection of selectionSet.selections) {
      if (!isIncluded(selection.directives)) continue;
      if (selection.kind === Kind.FIELD) {
        const key = selection.alias?.value ?? selection.name.value;
        const known = fields.get(key);
        if (known) known.push(selection);
        else fields.set(key, [selection]);
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        collect(selection.selectionSet);
      } else if (!visited.has(selection.name.value)) {
        visited.add(selection.name.value);
        const fragment = fragments.get(selection.name.value);
        if (fragment) collect(fragment.selectionSet);
      }
    }
  };
  collect(operation.selectionSet);
  return fields;
}
