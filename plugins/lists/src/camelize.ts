import { camelizeBody, camelizeKeys } from '@pipewright/sdk';

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * AYON clients may send snake_case field names (entity_id, entity_list_type, parent_id): accept them for the
 * fields of a body (or of each entry of an array body) and of the items it carries. Keys inside attrib, data,
 * access and template are the client's own and stay as sent.
 */
export async function camelizeListBody(request: { body: unknown }): Promise<void> {
  await camelizeBody(request);
  const body = request.body;
  if (isObject(body) && Array.isArray(body.items))
    body.items = body.items.map((item) => (isObject(item) ? camelizeKeys(item) : item));
}

/** Attribute definitions: the data of each may also come with snake_case keys (min_length, max_items, ...). */
export function camelizeDefinitions(request: { body: unknown }): void {
  if (!Array.isArray(request.body)) return;
  request.body = request.body.map((entry) =>
    isObject(entry) && isObject(entry.data) ? { ...entry, data: camelizeKeys(entry.data) } : entry,
  );
}
