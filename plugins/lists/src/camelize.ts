type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const camel = (key: string) => key.replace(/_([a-z0-9])/g, (_m, c: string) => c.toUpperCase());

/** The same object with its own keys in camelCase (values untouched). */
export function camelizeKeys(value: Json): Json {
  return Object.fromEntries(Object.entries(value).map(([key, inner]) => [camel(key), inner]));
}

/**
 * AYON clients may send snake_case field names (entity_id, entity_list_type, parent_id): accept them for the
 * fields of a body and of the items it carries. Keys inside attrib, data, access and template are the client's
 * own and stay as sent.
 */
export function camelizeBody(request: { body: unknown }): void {
  const body = request.body;
  if (Array.isArray(body)) {
    request.body = body.map((entry) => (isObject(entry) ? camelizeKeys(entry) : entry));
    return;
  }
  if (!isObject(body)) return;
  const fields = camelizeKeys(body);
  if (Array.isArray(fields.items))
    fields.items = fields.items.map((item) => (isObject(item) ? camelizeKeys(item) : item));
  request.body = fields;
}

/** Attribute definitions: the data of each may also come with snake_case keys (min_length, max_items, ...). */
export function camelizeDefinitions(request: { body: unknown }): void {
  if (!Array.isArray(request.body)) return;
  request.body = request.body.map((entry) =>
    isObject(entry) && isObject(entry.data) ? { ...entry, data: camelizeKeys(entry.data) } : entry,
  );
}
