/**
 * The answer to a batch of operations (entities, activities), as AYON gives it: the results in order, and success
 * only when every operation asked for ran and succeeded (a batch that stopped at a failure answers fewer results).
 */
export function operationsAnswer<R extends { success: boolean }>(results: R[], asked: unknown[]) {
  return {
    operations: results,
    success: results.length === asked.length && results.every((result) => result.success),
  };
}
