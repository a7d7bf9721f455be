import { NoContent, sendDownload, type AddonApp, type TSchema } from '@pipewright/sdk';
import {
  AnnotationCreate,
  AnnotationDrawing,
  AnnotationList,
  AnnotationPatch,
  AnnotationQuery,
  Created,
  ImportAnswer,
  OneParams,
  OpenRvFragment,
  OtioDocument,
  Params,
} from './schemas.js';
import type { AnnotationExchange } from './exchange.js';
import type { AnnotationService } from './service.js';

const BASE = '/api/projects/:project_name/versions/:version_id/reviewables/:activity_id/annotations';
const ONE = `${BASE}/:annotation_id`;
const IMPORT_LIMIT = 64 * 1024 * 1024;

/** An export's route: the file is the answer, a download. */
const exporting = (about: { summary: string; description: string; produces: string[] }) => ({
  schema: { ...about, params: Params },
});
/** An import's route: the file is the body, the answer counts what became of its objects. */
const importing = <Body extends TSchema>(
  body: Body,
  about: { summary: string; description: string; consumes?: string[] },
) => ({
  bodyLimit: IMPORT_LIMIT,
  schema: { ...about, params: Params, body, response: { 200: ImportAnswer } },
});

/** A reviewable's annotations: read by frame, drawn, changed and removed one object at a time. */
export function annotationRoutes(annotations: AnnotationService, exchange: AnnotationExchange) {
  return async (app: AddonApp) => {
    // An OpenRV fragment is text: sent as text/plain (which Fastify reads already) or as a file of unknown type.
    app.addContentTypeParser(
      'application/octet-stream',
      { parseAs: 'string', bodyLimit: IMPORT_LIMIT },
      (_request, body, done) => done(null, body),
    );

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

    app.post(
      `${BASE}/live`,
      {
        schema: {
          summary:
            'Show an object to the others while it is being drawn (a stroke as it grows); nothing is kept',
          description:
            'Broadcast as annotation.drawing with the object in its summary. The drawing ends with its POST to ' +
            'the annotations (same id); a client that stops sending is taken to have given up.',
          params: Params,
          body: AnnotationDrawing,
          response: { 204: NoContent },
        },
      },
      async (request) => {
        await annotations.drawing(request.caller, request.params, request.body);
      },
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

    app.get(
      `${BASE}/otio`,
      exporting({
        summary:
          "A reviewable's annotations as OpenTimelineIO (a timeline of its clip with Annotation.1 effects)",
        description:
          'One Annotation.1 effect per annotated frame, its layers (Paint.1, Rectangle.1, Ellipse.1, Line.1, ' +
          'Arrow.1, Text.1) in drawing order, as OpenRV reads them; positions in the image-bounds space of the ' +
          'Open Review Initiative (16 units wide, centred, y up), frames in the shot\u2019s numbering.',
        produces: ['application/json'],
      }),
      async (request, reply) => sendDownload(reply, await exchange.otio(request.caller, request.params)),
    );

    app.post(
      `${BASE}/otio`,
      importing(OtioDocument, {
        summary: 'Draw the annotations of an OTIO document on the reviewable (all of them or none)',
        description:
          'Reads every Annotation.1 effect of a Timeline, a Clip or the effect alone; a layer spanning several ' +
          'frames is drawn on each. An object whose id is on this reviewable already is replaced, so importing ' +
          'a file twice changes nothing. 422 names each layer that cannot be read.',
      }),
      async (request) => exchange.importOtio(request.caller, request.params, request.body),
    );

    app.post(
      `${BASE}/openrv`,
      importing(OpenRvFragment, {
        summary:
          'Draw the strokes and texts of an OpenRV paint fragment or session file (all of them or none)',
        description:
          'The body is GTO text (text/plain): the RVPaint nodes of the file\u2019s first source are read, each pen ' +
          'a stroke (mode 1 an eraser) and each text a text, RV\u2019s frame 1 the media\u2019s first frame. ' +
          'Objects exported from here keep their ids; a figure exported as pens stays as it is. Importing a file ' +
          'twice changes nothing. 422 names each component that cannot be read.',
        consumes: ['text/plain', 'application/octet-stream'],
      }),
      async (request) => exchange.importOpenRv(request.caller, request.params, request.body),
    );

    app.get(
      `${BASE}/openrv`,
      exporting({
        summary: "A reviewable's annotations as an OpenRV paint fragment (an RVPaint node, GTO text)",
        description:
          'GTO text for sourceGroup000000_paint: a pen stroke per line drawn (figures along their outline) and a ' +
          'text per text, each carrying its id; frames numbered from 1 as RV numbers a movie\u2019s frames.',
        produces: ['text/plain'],
      }),
      async (request, reply) => sendDownload(reply, await exchange.openRv(request.caller, request.params)),
    );
  };
}
