/**
 * AYON answers most single-resource reads with FastAPI's response_model_exclude_none: a field whose value is null is
 * left out rather than sent as null, at the top of the model and inside the nested models it names (an entity's
 * attrib). Plain objects inside (data) keep their nulls, as pydantic keeps them.
 */
export function excludeNone(
  record: Record<string, unknown>,
  nestedModels: readonly string[] = [],
): Record<string, unknown> {
  const answer: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(record)) {
    if (value === null || value === undefined) continue;
    answer[key] =
      nestedModels.includes(key) && typeof value === 'object' && !Array.isArray(value)
        ? excludeNone(value as Record<string, unknown>)
        : value;
  }
  return answer;
}
