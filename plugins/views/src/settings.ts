import {
  QueryConditionSchema,
  Type,
  ValidationFailed,
  camelize,
  check,
  normaliseOperator,
  OPERATORS,
  type Problem,
  type TSchema,
} from '@pipewright/sdk';

/** The pages of the web app a view is saved for; each has its own settings. */
export const VIEW_TYPES = ['overview', 'taskProgress', 'lists', 'reviews'] as const;
/**
 * Any name, as in AYON: a view type no page reads lists no views and finds none, and views saved under it keep
 * the settings every type shares.
 */
export type ViewType = string;

type Loc = (string | number)[];
type Json = Record<string, unknown>;

// Nullable scalars as one JSON type list, so a wrong value is one problem rather than a tangle of anyOf failures.
const nullableText = (maxLength: number) =>
  Type.Unsafe<string | null>({ type: ['string', 'null'], maxLength, default: null });
const nullableInteger = (maximum: number) =>
  Type.Unsafe<number | null>({ type: ['integer', 'null'], minimum: 0, maximum, default: null });

// Unknown keys are kept, not refused: the web app adds settings of its own from one release to the next, and a
// view should carry them rather than fail to save or lose them.
const open = { additionalProperties: true } as const;

const Column = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 255 }),
    visible: Type.Boolean({ default: true }),
    pinned: Type.Boolean({ default: false }),
    width: nullableInteger(100_000),
  },
  open,
);

const Columns = Type.Array(Column, { maxItems: 1000, default: [] });
// The filter's inner shape is checked by filterProblems, which can locate each problem exactly.
const Filter = Type.Unsafe<Json | null>({ type: ['object', 'null'], default: null });

const common = {
  filter: Filter,
  columns: Columns,
};
const tableLayout = {
  rowHeight: nullableInteger(10_000),
  sortBy: nullableText(255),
  sortDesc: Type.Boolean({ default: false }),
};

const ListsSettings = Type.Object({ ...tableLayout, ...common }, open);

/** The settings each view type stores (AYON's OverviewSettings, TaskProgressSettings, ...), defaults filled in. */
const SETTINGS: Record<(typeof VIEW_TYPES)[number], TSchema> = {
  overview: Type.Object(
    {
      showHierarchy: Type.Boolean({ default: true }),
      groupBy: nullableText(255),
      showEmptyGroups: Type.Boolean({ default: false }),
      ...tableLayout,
      ...common,
    },
    open,
  ),
  taskProgress: Type.Object(common, open),
  lists: ListsSettings,
  reviews: ListsSettings,
};
const SHARED_SETTINGS = Type.Object(common, open);

const settingsOf = (viewType: ViewType): TSchema =>
  (VIEW_TYPES as readonly string[]).includes(viewType)
    ? SETTINGS[viewType as keyof typeof SETTINGS]
    : SHARED_SETTINGS;

const KNOWN_KEYS = new Set([
  'showHierarchy',
  'rowHeight',
  'groupBy',
  'showEmptyGroups',
  'sortBy',
  'sortDesc',
  'filter',
  'columns',
  'name',
  'visible',
  'pinned',
  'width',
]);

/** AYON also accepts its field names in snake_case (show_hierarchy); known ones are renamed, the rest kept. */
function camelizeKnown(value: Json): Json {
  const out: Json = {};
  for (const [key, item] of Object.entries(value)) {
    const name = camelize(key);
    if (name !== key && KNOWN_KEYS.has(name) && !(name in value)) out[name] = item;
    else out[key] = item;
  }
  return out;
}

const MAX_DEPTH = 16;
const GROUP_KEYS = new Set(['conditions', 'operator']);

/** Problems of an AYON QueryFilter ({conditions: [condition | filter], operator: and | or}), located under loc. */
export function filterProblems(filter: unknown, loc: Loc, depth = 1): Problem[] {
  if (depth > MAX_DEPTH)
    return [{ loc, msg: `filters nest at most ${MAX_DEPTH} levels deep`, type: 'too_deep' }];
  if (typeof filter !== 'object' || filter === null || Array.isArray(filter)) {
    return [{ loc, msg: 'must be a filter object {conditions, operator}', type: 'type' }];
  }
  const problems: Problem[] = [];
  const group = filter as Json;
  for (const key of Object.keys(group)) {
    if (!GROUP_KEYS.has(key))
      problems.push({ loc: [...loc, key], msg: `unknown field '${key}'`, type: 'additionalProperties' });
  }
  if (group.operator !== undefined && !['and', 'or'].includes(String(group.operator).toLowerCase())) {
    problems.push({ loc: [...loc, 'operator'], msg: "must be 'and' or 'or'", type: 'enum' });
  }
  if (group.conditions === undefined) return problems;
  if (!Array.isArray(group.conditions)) {
    return [...problems, { loc: [...loc, 'conditions'], msg: 'must be a list', type: 'type' }];
  }
  if (group.conditions.length > 1000) {
    return [...problems, { loc: [...loc, 'conditions'], msg: 'at most 1000 conditions', type: 'maxItems' }];
  }
  group.conditions.forEach((item: unknown, i: number) => {
    const at = [...loc, 'conditions', i];
    // A nested filter is told apart from a condition by having conditions or no key, as AYON's union does.
    const isGroup = typeof item === 'object' && item !== null && ('conditions' in item || !('key' in item));
    if (isGroup) {
      problems.push(...filterProblems(item, at, depth + 1));
      return;
    }
    const shape = check(QueryConditionSchema, item, at);
    if (shape.length) {
      problems.push(...shape);
    } else if (!normaliseOperator((item as Json).operator as string | undefined)) {
      problems.push({
        loc: [...at, 'operator'],
        msg: `must be one of ${OPERATORS.join(', ')}`,
        type: 'enum',
      });
    }
  });
  return problems;
}

/**
 * The settings of a view of this type as stored and shown: known fields checked and filled with their defaults,
 * unknown ones kept. Throws ValidationFailed (422) with every problem, located under loc.
 */
export function validateSettings(viewType: ViewType, value: unknown, loc: Loc): Json {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new ValidationFailed([{ loc, msg: 'must be an object', type: 'type' }]);
  }
  const settings = camelizeKnown(value as Json);
  if (Array.isArray(settings.columns)) {
    settings.columns = settings.columns.map((column) =>
      typeof column === 'object' && column !== null && !Array.isArray(column)
        ? camelizeKnown(column as Json)
        : column,
    );
  }
  // check() fills defaults into the object it validates, which is what we store.
  const problems = check(settingsOf(viewType), settings, loc);
  if (settings.filter !== null && settings.filter !== undefined && typeof settings.filter === 'object') {
    problems.push(...filterProblems(settings.filter, [...loc, 'filter']));
  }
  if (problems.length) {
    const first = problems[0];
    throw new ValidationFailed(problems, `Invalid view settings: ${first.loc.join('.')}: ${first.msg}`);
  }
  return settings;
}

/** Settings read back from storage, with defaults of fields added since they were saved. */
export function storedSettings(viewType: ViewType, value: unknown): Json {
  const settings =
    typeof value === 'object' && value !== null && !Array.isArray(value) ? { ...(value as Json) } : {};
  check(settingsOf(viewType), settings, []);
  return settings;
}
