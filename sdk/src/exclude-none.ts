/**
 * AYON answers most single-resource reads with FastAPI's response_model_exclude_none: a field whose value is null is
 * left out rather than sent as null, at the top of the model and inside the nested models it names (an entity's
 * attrib). Plain objects inside (data) keep their nulls, as pydantic keeps them. The answer keeps the record's
 * type: a field that may be left out is one its type allows to be null.
 */
export function excludeNone<T extends object>(record: T, nestedModels: readonly string[] = []): T {
  const answer: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(record) as [string, unknown][]) {
    if (value === null || value === undefined) continue;
    answer[key] =
      nestedModels.includes(key) && typeof value === 'object' && !Array.isArray(value)
        ? excludeNone(value as Record<string, unknown>)
        : value;
  }
  return answer as T;
}
