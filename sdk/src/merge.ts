type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Apply a patch the way every PATCH of attrib, data and config works: objects merge key by key, recursively;
 * a null removes the key (so an attribute is inherited again); lists and scalars replace the old value.
 */
export function mergePatch(base: Json, patch: Json | undefined): Json {
  const merged: Json = { ...base };
  for (const [key, value] of Object.entries(patch ?? {})) {
    if (value === null) delete merged[key];
    else if (isObject(value) && isObject(merged[key])) merged[key] = mergePatch(merged[key] as Json, value);
    else merged[key] = value;
  }
  return merged;
}
