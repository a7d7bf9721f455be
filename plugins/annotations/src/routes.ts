import { NoContent, type AddonApp } from '@pipewright/sdk';
import {
  AnnotationCreate,
  AnnotationList,
  AnnotationPatch,
  AnnotationQuery,
  Created,
  OneParams,
  Params,
} from './schemas.js';
import type { AnnotationService } from './service.js';

const BASE = '/api/projects/:project_name/versions/:version_id/reviewables/:activity_id/annotations';
const ONE = `${BASE}/:annotation_id`;

/** A reviewable's annotations: read by frame, drawn, changed and removed one object at a time. */
export function annotationRoutes(annotations: AnnotationService) {
  return async (app: AddonApp) => {
    app.get(
      BASE,
      {
        schema: {
          summary: "A reviewable's annotations, by frame (one frame, a range, or all)",
          params: Params,
          querystring: AnnotationQuery,
          response: { 200: AnnotationList },
        },
      },
      async (request) => ({
        annotations: await annotations.list(request.caller, request.params, request.query),
      }),
    );

    app.post(
      BASE,
      {
        schema: {
          summary: 'Draw an object on a frame: a stroke, an eraser stroke, a shape or a text',
          description:
            'frame is the media frame in the shot\u2019s numbering; coordinates are normalised by the picture\u2019s ' +
            'height (origin at the centre, y up), as OpenRV and the OTIO annotation schema keep them. An id chosen ' +
            'by the client makes a retry safe (409 when it exists).',
          params: Params,
          body: AnnotationCreate,
          response: { 201: Created },
        },
      },
      async (request, reply) =>
        reply.code(201).send(await annotations.create(request.caller, request.params, request.body)),
    );

    app.patch(
      ONE,
      {
        schema: {
          summary: 'Change an annotation (its author, or a manager)',
          params: OneParams,
          body: AnnotationPatch,
          response: { 204: NoContent },
        },
      },
      async (request) => {
        await annotations.update(request.caller, request.params, request.params.annotation_id, request.body);
      },
    );

    app.delete(
      ONE,
      {
        schema: {
          summary: 'Remove an annotation (its author, or a manager)',
          params: OneParams,
          response: { 204: NoContent },
        },
      },
      async (request) => {
        await annotations.remove(request.caller, request.params, request.params.annotation_id);
      },
    );
  };
}
