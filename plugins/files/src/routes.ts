import {
  type AddonApp,
  CreatedResponse,
  Forbidden,
  headerText,
  isManagerOrAbove,
  NoContent,
  ProjectParams,
  type ProjectRequest,
  type Static,
  Type,
  uploadStream,
} from '@pipewright/sdk';
import type { ByteRange } from './api.js';
import type { ProjectDirectory } from '@pipewright/plugin-projects/api';
import type { Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { PayloadTooLarge, RangeNotSatisfiable } from './errors.js';
import { compactId, fileHeaders } from './http-headers.js';
import { requestedRange } from './ranges.js';
import { FileInfo, FileParams, StillQuery, UploadHeaders } from './schemas.js';
import type { FileService } from './service.js';

interface Deps {
  files: FileService;
  projects: ProjectDirectory;
}

const BASE = '/api/projects/:project_name/files';
const JPEG = { 200: Type.Any({ description: 'A JPEG image' }) };

/** A frame or thumbnail: the same bytes until the file is deleted, so clients may keep it for an hour. */
function sendJpeg(reply: FastifyReply, image: Buffer) {
  return reply
    .code(200)
    .header('content-type', 'image/jpeg')
    .header('cache-control', 'private, max-age=3600')
    .send(image);
}

/** The routes of /api/projects/{project_name}/files: upload, redirect, payload, info, previews and delete. */
export function fileRoutes({ files, projects }: Deps) {
  /** The project (403 without access, 404 when missing) and the file in it (404). */
  async function findFile(request: ProjectRequest & { params: { file_id: string } }) {
    const project = await projects.requireFor(request);
    return files.require(project.name, request.params.file_id);
  }

  /** Uploads read the raw body themselves, whatever its type: registered apart so other routes keep JSON. */
  const uploads = async (app: AddonApp) => {
    app.removeAllContentTypeParsers();
    // The body is left unread here: the route checks the caller and the size first, then streams it to storage.
    app.addContentTypeParser('*', (_request, _payload, done) => done(null, undefined));

    app.post(
      BASE,
      {
        schema: {
          summary: 'Upload a file (the raw body) to a project: a comment attachment, review media, ...',
          description:
            'Headers: Content-Type (stored and served back), X-File-Name, optionally X-File-Id (32 hex) and ' +
            'X-Activity-Id. Answers the new id. 413 when the body is larger than the upload limit.',
          params: ProjectParams,
          headers: UploadHeaders,
          response: { 201: CreatedResponse },
        },
      },
      async (request, reply) => {
        const headers = request.headers;
        let body: Readable | null = null;
        try {
          const project = await projects.requireFor(request);
          // A declared size over the limit is refused before a byte is read; a body without a length (chunked) is
          // counted as it streams in.
          if (Number(headers['content-length']) > files.uploadLimit)
            throw new PayloadTooLarge(files.uploadLimit);
          body = uploadStream(request.raw);
          const record = await files.store(project.name, body, {
            id: headers['x-file-id'] ? compactId(headers['x-file-id']) : undefined,
            name: headerText(headers['x-file-name']),
            contentType: headers['content-type'].trim(),
            author: request.caller.name,
            activityId: headers['x-activity-id'] ? compactId(headers['x-activity-id']) : null,
          });
          return reply.code(201).send({ id: record.id });
        } catch (error) {
          body?.destroy();
          // What is left of a refused body (no access, too big, a taken id) is not worth reading: the connection
          // closes after the answer instead of waiting for the rest.
          if (!request.raw.readableEnded) reply.header('connection', 'close');
          throw error;
        }
      },
    );
  };

  return async (app: AddonApp) => {
    await app.register(uploads);

    // AYON answers with a redirect to the bytes (or, with object storage, to a signed URL or a CDN).
    app.get(
      `${BASE}/:file_id`,
      {
        exposeHeadRoute: false,
        schema: {
          summary: 'Redirect (302) to the file payload',
          params: FileParams,
          response: { 302: Type.Null({ description: 'Location: the payload' }) },
        },
      },
      async (request, reply) => {
        const file = await findFile(request);
        return reply.redirect(`/api/projects/${file.project}/files/${file.id}/payload`, 302);
      },
    );

    app.head(
      `${BASE}/:file_id`,
      {
        schema: {
          summary: "The file's headers: type, length and name",
          params: FileParams,
          response: { 200: Type.Any({ description: 'No body: the headers describe the file' }) },
        },
      },
      async (request, reply) => {
        const file = await findFile(request);
        return reply.code(200).headers(fileHeaders(file)).header('content-length', String(file.size)).send();
      },
    );

    /** The bytes, or the range a player asked for; HEAD answers the same headers without them. */
    const payload = async (
      request: FastifyRequest<{ Params: Static<typeof FileParams> }>,
      reply: FastifyReply,
    ) => {
      const file = await findFile(request);
      let range: ByteRange | null;
      try {
        range = requestedRange(request.headers.range, file.size);
      } catch (error) {
        if (error instanceof RangeNotSatisfiable) reply.header('content-range', `bytes */${error.size}`);
        throw error;
      }
      // Opened before any header is set, so a file missing from storage answers a clean 404.
      const content =
        request.method === 'HEAD' ? undefined : await files.open(file.project, file.id, range ?? undefined);
      reply.headers(fileHeaders(file));
      if (range) {
        reply
          .code(206)
          .header('content-range', `bytes ${range.start}-${range.end}/${file.size}`)
          .header('content-length', String(range.end - range.start + 1));
      } else {
        reply.code(200).header('content-length', String(file.size));
      }
      return reply.send(content);
    };
    const payloadSchema = {
      params: FileParams,
      response: { 200: Type.Any({ description: 'The file' }), 206: Type.Any({ description: 'Part of it' }) },
    };
    app.get(
      `${BASE}/:file_id/payload`,
      {
        exposeHeadRoute: false,
        schema: {
          summary: 'The bytes of the file; a Range header gets part of them (206), as video players ask',
          ...payloadSchema,
        },
      },
      payload,
    );
    app.head(
      `${BASE}/:file_id/payload`,
      { schema: { summary: 'The headers the payload would be sent with', ...payloadSchema } },
      payload,
    );

    app.get(
      `${BASE}/:file_id/info`,
      {
        schema: {
          summary: "The file's record: size, name, type, author, activity and media info when known",
          params: FileParams,
          response: { 200: FileInfo },
        },
      },
      async (request) => {
        const file = await findFile(request);
        const mediaInfo = await files.knownMediaInfo(file.project, file.id);
        return {
          id: file.id,
          size: file.size,
          filename: file.name,
          contentType: file.contentType,
          author: file.author,
          activityId: file.activityId,
          createdAt: file.createdAt.toISOString(),
          ...(mediaInfo ? { mediaInfo } : {}),
        };
      },
    );

    app.get(
      `${BASE}/:file_id/thumbnail`,
      {
        schema: {
          summary:
            'A JPEG of at most 500 px made from an image or the first frame of a video (415 for others)',
          params: FileParams,
          response: JPEG,
        },
      },
      async (request, reply) => {
        const file = await findFile(request);
        return sendJpeg(reply, await files.thumbnail(file.project, file.id));
      },
    );

    app.get(
      `${BASE}/:file_id/still`,
      {
        schema: {
          summary: 'A full-size JPEG of the video frame at t seconds (404 past the end)',
          params: FileParams,
          querystring: StillQuery,
          response: JPEG,
        },
      },
      async (request, reply) => {
        const file = await findFile(request);
        return sendJpeg(reply, await files.still(file.project, file.id, request.query.t));
      },
    );

    app.delete(
      `${BASE}/:file_id`,
      {
        schema: {
          summary: 'Delete a file: its uploader or a manager',
          params: FileParams,
          response: { 204: NoContent },
        },
      },
      async (request) => {
        const file = await findFile(request);
        if (!isManagerOrAbove(request.caller) && file.author !== request.caller.name) {
          throw new Forbidden('Only the uploader of a file or a manager may delete it');
        }
        await files.remove(file.project, file.id);
      },
    );
  };
}
