import {
  GraphQLError,
  Kind,
  getNamedType,
  getNullableType,
  isCompositeType,
  isListType,
  valueFromASTUntyped,
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLCompositeType,
  type GraphQLField,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
} from 'graphql';
import { DEFAULT_PAGE, MAX_PAGE } from './connection.js';

/** What one query may ask of the server (the configurable ones come from GRAPHQL_MAX_COST and GRAPHQL_MAX_ALIASES). */
export interface QueryLimits {
  maxCost: number;
  maxAliases: number;
}

// Documents past these are refused before validation, which would otherwise take seconds over them (measured
// with graphql-js 16: 2,000 fields under one name took 2.5 s, 5,000 took 22 s). Our clients' largest query, the
// introspection query, has 220 fields and repeats no name.
export const MAX_FIELDS = 2_000;
// Pairs of fields validation compares for repeated response names (see shapeCounter): about 0.5 µs each.
export const MAX_OVERLAP = 100_000;
// Parsing stops here; 50,000 tokens parse in about 60 ms, and the largest client query has under 2,000.
export const MAX_TOKENS = 50_000;

// Resolvers whose default page is not DEFAULT_PAGE when the query names neither first nor last.
const DEFAULT_PAGES: Record<string, number> = { 'Query.kanban': 2000, 'EntityListNode.items': 200 };
// Lists the schema does not page (anatomy lists, files, versionList, reactions...) are read whole with their
// parent; this is what one usually holds.
const UNPAGED_LIST = 10;

/** The answer when a query goes over a limit: a GraphQL error that names the limit and the figures. */
export class QueryRefused extends Error {
  readonly errors: GraphQLError[];
  constructor(message: string, code: string, figures: Record<string, number>) {
    super(message);
    this.errors = [new GraphQLError(message, { extensions: { status: 400, code, ...figures } })];
  }
}

/** Codes of the refusals above: like a query that does not validate, they answer 400. */
export const REFUSAL_CODES = [
  'too-many-aliases',
  'too-many-fields',
  'too-many-repeated-fields',
  'query-too-costly',
];

const figure = (n: number) => (Number.isFinite(n) ? n.toLocaleString('en-US') : 'too many');

function fragmentsOf(document: DocumentNode): Map<string, FragmentDefinitionNode> {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const definition of document.definitions)
    if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);
  return fragments;
}

/** Fields under one response name in a selection: how many, and the sum and sum of squares of their sizes. */
interface SameName {
  count: number;
  sum: number;
  squares: number;
}

/** What a selection holds, fragments expanded: fields, aliases, and the fields under each response name. */
interface Shape {
  fields: number;
  aliases: number;
  names: Map<string, SameName>;
}

function addName(names: Map<string, SameName>, name: string, part: SameName): void {
  const seen = names.get(name) ?? { count: 0, sum: 0, squares: 0 };
  names.set(name, {
    count: seen.count + part.count,
    sum: seen.sum + part.sum,
    squares: seen.squares + part.squares,
  });
}

function add(total: Shape, part: Shape): void {
  total.fields += part.fields;
  total.aliases += part.aliases;
  for (const [name, same] of part.names) addName(total.names, name, same);
}

/**
 * Counts what selections hold as if every fragment spread were written out, without writing them out: each
 * fragment is counted once and its figures reused, so nested spreads cannot make the count itself slow.
 *
 * Also bounds the work of validation's overlapping-fields rule, the one part of validation that is not linear:
 * fields under one response name in one selection set are compared pair by pair, each pair down through all their
 * sub-selections. For two fields of sizes a and b (fields in their subtree) that is at most a * b comparisons;
 * `overlap` sums it over every selection set. A query that never repeats a name costs nothing here.
 */
function shapeCounter(fragments: Map<string, FragmentDefinitionNode>) {
  const known = new Map<string, Shape>();
  const open = new Set<string>();
  let overlap = 0;
  const count = (set: SelectionSetNode | undefined): Shape => {
    const total: Shape = { fields: 0, aliases: 0, names: new Map() };
    for (const selection of set?.selections ?? []) {
      if (selection.kind === Kind.FIELD) {
        const inner = count(selection.selectionSet);
        const size = 1 + inner.fields;
        total.fields += size;
        total.aliases += (selection.alias ? 1 : 0) + inner.aliases;
        addName(total.names, (selection.alias ?? selection.name).value, {
          count: 1,
          sum: size,
          squares: size * size,
        });
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        add(total, count(selection.selectionSet));
      } else {
        const name = selection.name.value;
        // A cycle is a validation error of its own; here it just adds nothing.
        if (open.has(name)) continue;
        if (!known.has(name)) {
          open.add(name);
          known.set(name, count(fragments.get(name)?.selectionSet));
          open.delete(name);
        }
        add(total, known.get(name)!);
      }
    }
    for (const same of total.names.values())
      if (same.count > 1) overlap += (same.sum * same.sum - same.squares) / 2;
    return total;
  };
  return { count, overlap: () => overlap };
}

/** Fields and aliases of a document's operations, fragments expanded, and the overlap validation compares. */
export function countShape(document: DocumentNode): { fields: number; aliases: number; overlap: number } {
  const counter = shapeCounter(fragmentsOf(document));
  const total: Shape = { fields: 0, aliases: 0, names: new Map() };
  for (const definition of document.definitions)
    if (definition.kind === Kind.OPERATION_DEFINITION) add(total, counter.count(definition.selectionSet));
  return { fields: total.fields, aliases: total.aliases, overlap: counter.overlap() };
}

/** Refuse, before validation, a document too large to validate quickly or with too many aliases. */
export function checkShape(document: DocumentNode, limits: QueryLimits): void {
  const { fields, aliases, overlap } = countShape(document);
  if (aliases > limits.maxAliases)
    throw new QueryRefused(
      `The query has ${figure(aliases)} aliases; the limit is ${figure(limits.maxAliases)} (GRAPHQL_MAX_ALIASES)`,
      'too-many-aliases',
      { aliases, maxAliases: limits.maxAliases },
    );
  if (fields > MAX_FIELDS)
    throw new QueryRefused(
      `The query has ${figure(fields)} fields once its fragments are expanded; the limit is ${figure(MAX_FIELDS)}`,
      'too-many-fields',
      { fields, maxFields: MAX_FIELDS },
    );
  if (overlap > MAX_OVERLAP)
    throw new QueryRefused(
      `The query repeats fields under the same name so often that checking it would take ${figure(overlap)} ` +
        `comparisons; the limit is ${figure(MAX_OVERLAP)}. Select each field once.`,
      'too-many-repeated-fields',
      { overlap, maxOverlap: MAX_OVERLAP },
    );
}

/** The value of a field's argument as the query gives it (a literal or a variable), or undefined. */
function argument(field: FieldNode, name: string, variables: Record<string, unknown>): unknown {
  const node = field.arguments?.find((arg) => arg.name.value === name);
  return node ? valueFromASTUntyped(node.value, variables) : undefined;
}

/**
 * How many times a field's selection is answered per parent: the page a connection asks for (first or last, else
 * the argument's default, else the resolver's), a typical size for a list the schema does not page, else 1.
 */
function fanOut(
  parent: GraphQLCompositeType,
  definition: GraphQLField<unknown, unknown>,
  field: FieldNode,
  variables: Record<string, unknown>,
): number {
  const pageArgs = definition.args.filter((arg) => arg.name === 'first' || arg.name === 'last');
  if (pageArgs.length || getNamedType(definition.type).name.endsWith('Connection')) {
    const asked = pageArgs
      .map((arg) => argument(field, arg.name, variables))
      .find((v) => typeof v === 'number');
    const fallback = pageArgs.map((arg) => arg.defaultValue).find((v) => typeof v === 'number');
    const size = (asked ??
      fallback ??
      DEFAULT_PAGES[`${parent.name}.${definition.name}`] ??
      DEFAULT_PAGE) as number;
    return Math.min(Math.max(size, 0), MAX_PAGE);
  }
  // A connection's edges are its page, already counted at the connection.
  if (isListType(getNullableType(definition.type)) && !parent.name.endsWith('Connection'))
    return UNPAGED_LIST;
  return 1;
}

/** The operations a request may run: the one named, else all (validation lets only one through unnamed). */
function operationsOf(document: DocumentNode, name: string | undefined): OperationDefinitionNode[] {
  const operations = document.definitions.filter(
    (definition): definition is OperationDefinitionNode => definition.kind === Kind.OPERATION_DEFINITION,
  );
  const named = name ? operations.filter((operation) => operation.name?.value === name) : [];
  return named.length ? named : operations;
}

/**
 * The estimated cost of running a validated query: every field costs 1, and a list multiplies the cost of what is
 * selected inside it by the number of items it may answer (see fanOut). Fragments count where they are spread.
 * With several operations and none named, the costliest counts.
 */
export function queryCost(
  schema: GraphQLSchema,
  document: DocumentNode,
  variables: Record<string, unknown> = {},
  operationName?: string,
): number {
  const fragments = fragmentsOf(document);
  const shape = shapeCounter(fragments).count;
  // A fragment costs the same wherever it is spread (its arguments come from the same variables).
  const known = new Map<string, number>();
  const cost = (set: SelectionSetNode | undefined, type: GraphQLCompositeType): number => {
    let total = 0;
    for (const selection of set?.selections ?? []) {
      if (selection.kind === Kind.FIELD) {
        total += 1;
        // Introspection is answered from the schema in memory: its fields count, its lists do not multiply.
        if (selection.name.value.startsWith('__')) {
          total += shape(selection.selectionSet).fields;
          continue;
        }
        if (!('getFields' in type)) continue;
        const definition = type.getFields()[selection.name.value];
        const inner = getNamedType(definition?.type);
        if (!definition || !selection.selectionSet || !isCompositeType(inner)) continue;
        total += fanOut(type, definition, selection, variables) * cost(selection.selectionSet, inner);
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        const on = selection.typeCondition ? schema.getType(selection.typeCondition.name.value) : type;
        total += cost(selection.selectionSet, isCompositeType(on) ? on : type);
      } else {
        const name = selection.name.value;
        if (!known.has(name)) {
          known.set(name, 0);
          const fragment = fragments.get(name);
          const on = fragment && schema.getType(fragment.typeCondition.name.value);
          known.set(name, fragment && isCompositeType(on) ? cost(fragment.selectionSet, on) : 0);
        }
        total += known.get(name)!;
      }
    }
    return total;
  };
  let highest = 0;
  for (const operation of operationsOf(document, operationName)) {
    const root = schema.getRootType(operation.operation);
    if (root) highest = Math.max(highest, cost(operation.selectionSet, root));
  }
  return highest;
}

/** Refuse, before any resolver runs, a query whose estimated cost is over the limit. */
export function checkCost(
  schema: GraphQLSchema,
  document: DocumentNode,
  variables: Record<string, unknown> | undefined,
  operationName: string | undefined,
  limits: QueryLimits,
): void {
  const cost = queryCost(schema, document, variables ?? {}, operationName);
  if (cost > limits.maxCost)
    throw new QueryRefused(
      `The query's estimated cost is ${figure(cost)}; the limit is ${figure(limits.maxCost)} (GRAPHQL_MAX_COST). ` +
        'Each field counts 1 and a list multiplies what it selects by its page size: ask for smaller pages (first/last).',
      'query-too-costly',
      { cost, maxCost: limits.maxCost },
    );
}
