/** The set with the item taken out if it was in, else put in (a new set: React state is not changed in place). */
export function toggled<T>(set: Set<T>, item: T): Set<T> {
  const next = new Set(set);
  if (!next.delete(item)) next.add(item);
  return next;
}
