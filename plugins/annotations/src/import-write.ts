import { Value, type ValueError } from '@sinclair/typebox/value';
import { Forbidden, isManagerOrAbove, newId, type Problem, type RequestUser } from '@pipewright/sdk';
import type { ImportedObject } from './interchange.js';
import { AnnotationCreate } from './schemas.js';
import type { AnnotationRow, AnnotationStore } from './store.js';

/** The reviewable an import draws on. */
export interface ImportPlace {
  project: string;
  versionId: string;
  reviewableId: string;
}

/** What became of one imported object: drawn anew, replacing one here, or an object here kept as it is. */
export type ImportOutcome = 'created' | 'updated' | { kept: string };

/** Figures a file may hold only as their outline (OpenRV's pens): the outline does not replace the figure. */
const FIGURES = new Set(['rectangle', 'ellipse', 'line', 'arrow']);
const plain = (id: string) => id.replaceAll('-', '');

/** The errors that say what is wrong: of a union (the shape), those of the variant of the object's kind. */
function* precise(errors: Iterable<ValueError>): Generator<ValueError> {
  for (const error of errors) {
    const variants = (error.errors ?? []).map((variant) => [...variant]);
    const ofItsKind = variants.find((found) => found.length && !found.some((e) => e.path.endsWith('/kind')));
    if (ofItsKind) yield* precise(ofItsKind);
    else yield error;
  }
}

/** What the API would refuse in an imported object, named as the file names it. */
export function schemaProblems(object: ImportedObject, index: number): Problem[] {
  const { id, frame, color, shape } = object;
  return [...precise(Value.Errors(AnnotationCreate, { id, frame, color, shape }))].map((error) => ({
    loc: [...(object.loc ?? ['body', 'annotations', index]), ...error.path.split('/').filter(Boolean)],
    msg: `${object.label ?? `Frame ${frame}`}: ${error.message}`,
    type: 'value_error',
  }));
}

/**
 * Where an object goes: its own id when that is free or already this reviewable's and not yet used by this import,
 * else its fallback id on the same terms, else a new one; or nowhere, when it outlines one of our figures here.
 */
async function placeOf(
  store: AnnotationStore,
  place: ImportPlace,
  object: ImportedObject,
  taken: Set<string>,
): Promise<{ kept: string } | { id: string; existing: AnnotationRow | null }> {
  const here = (row: AnnotationRow | null) => !!row && plain(row.reviewable_id) === place.reviewableId;
  if (object.id && object.outline) {
    const row = await store.get(place.project, object.id);
    if (row && here(row) && FIGURES.has(row.kind)) {
      taken.add(object.id);
      return { kept: object.id };
    }
  }
  for (const id of [object.id, object.fallbackId]) {
    if (!id || taken.has(id)) continue;
    const row = await store.get(place.project, id);
    if (row && !here(row)) continue;
    taken.add(id);
    return { id, existing: row };
  }
  return { id: newId(), existing: null };
}

/** Write one imported object (inside the import's transaction); replacing someone else's takes a manager. */
export async function writeImported(
  store: AnnotationStore,
  caller: RequestUser,
  place: ImportPlace,
  object: ImportedObject,
  taken: Set<string>,
): Promise<ImportOutcome> {
  const target = await placeOf(store, place, object, taken);
  if ('kept' in target) return target;
  const { frame, color, shape } = object;
  if (target.existing) {
    if (target.existing.author !== caller.name && !isManagerOrAbove(caller))
      throw new Forbidden(
        `Annotation ${target.id} is someone else's; only its author or a manager replaces it`,
      );
    await store.update(place.project, target.existing.id, { frame, color, shape });
    return 'updated';
  }
  await store.insert(place.project, {
    id: target.id,
    version_id: place.versionId,
    reviewable_id: place.reviewableId,
    frame,
    kind: shape.kind,
    color,
    shape,
    author: caller.name,
  });
  return 'created';
}
