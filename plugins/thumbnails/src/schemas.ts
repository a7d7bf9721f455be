import { Id, ProjectName, Type } from '@pipewright/sdk';

export const ThumbnailParams = Type.Object({ project_name: ProjectName, thumbnail_id: Id });

/** Path parameters of /api/projects/{project_name}/{plural}/{<type>_id}/thumbnail. */
export const entityParams = (idParam: string) => Type.Object({ project_name: ProjectName, [idParam]: Id });

// Unknown query keys stay allowed: web clients append cache-busting values (?updatedAt=..., ?hash=...) to
// thumbnail URLs, and AYON ignores them.
export const ThumbnailQuery = Type.Object({
  placeholder: Type.Union([Type.Literal('empty'), Type.Literal('none')], {
    default: 'empty',
    description: 'empty: answer 203 with a 1x1 transparent PNG when there is no image; none: answer 404',
  }),
  original: Type.Boolean({
    default: false,
    description: 'Accepted for compatibility: the stored image is the original',
  }),
});
