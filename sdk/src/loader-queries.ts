/** One query of a GraphQL loader: the node a field is resolved on and the field's arguments. */
export interface LoaderQuery<P> {
  obj: { projectName: string };
  params: P;
}

/**
 * A loader's queries grouped by what can share one read: the same project and the same arguments. Each group
 * lists where its queries stand (at), which is where their answers go.
 */
export function groupLoaderQueries<P>(queries: LoaderQuery<P>[]) {
  const groups = new Map<string, { projectName: string; params: P; at: number[] }>();
  queries.forEach(({ obj, params }, index) => {
    const key = JSON.stringify([obj.projectName, params]);
    const group = groups.get(key) ?? { projectName: obj.projectName, params, at: [] };
    group.at.push(index);
    groups.set(key, group);
  });
  return groups.values();
}
