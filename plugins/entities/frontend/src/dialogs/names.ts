// Entity names: letters, digits and _, with inner dots and hyphens (the server's rule, checked here first).
export const NAME = /^[a-zA-Z0-9_]([a-zA-Z0-9_.-]*[a-zA-Z0-9_])?$/;

/** What the dialogs say when a name breaks that rule. */
export const NAME_RULE = 'Use letters, digits and _ (dots and hyphens inside the name are fine).';

/** A task's name made of its type: "Compositing" makes "compositing". */
export const taskName = (type: string) =>
  type
    .toLowerCase()
    .replace(/[^a-z0-9_]+/g, '_')
    .replace(/^_+|_+$/g, '') || 'task';

/** A few names and how many more: "sh010, sh020, sh030 … sh200 (20)". */
export function summary(names: string[]): string {
  if (names.length <= 6) return names.join(', ');
  return `${names.slice(0, 3).join(', ')} … ${names[names.length - 1]} (${names.length})`;
}
