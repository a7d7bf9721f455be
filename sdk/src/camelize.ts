// AYON's models take each field by its camelCase alias or by its snake_case name, so clients send either. The
// helpers here rename the snake_case spelling to the camelCase field Pipewright's schemas declare.

/**
 * A snake_case name in camelCase: each underscore followed by a lowercase letter or a digit is dropped and the
 * character after it upper-cased (activity_type -> activityType, frame_1 -> frame1). AYON derives its aliases by
 * splitting on underscores, so it drops the one before a digit too; other underscores (a leading one, __, _X) are
 * kept, as they start no AYON field name.
 */
export const camelize = (key: string): string =>
  key.replace(/_([a-z0-9])/g, (_m, c: string) => c.toUpperCase());

/** A copy of the object with its own keys camelized (values untouched; nested objects keep their keys). */
export function camelizeKeys(value: Record<string, unknown>): Record<string, unknown> {
  // Most clients already send camelCase: copy those as they are.
  if (!Object.keys(value).some((key) => key.includes('_'))) return { ...value };
  return Object.fromEntries(Object.entries(value).map(([key, inner]) => [camelize(key), inner]));
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * A route's preValidation hook: camelize the top-level keys of an object body, or of each object of an array
 * body, before the schema looks. Keys deeper down (attrib, data) are the client's own and stay as sent.
 */
export async function camelizeBody(request: { body: unknown }): Promise<void> {
  const body = request.body;
  if (Array.isArray(body))
    request.body = body.map((entry) => (isObject(entry) ? camelizeKeys(entry) : entry));
  else if (isObject(body)) request.body = camelizeKeys(body);
}
