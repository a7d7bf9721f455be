import type { Readable } from 'node:stream';
import type { FastifyBaseLogger } from 'fastify';
import {
  NoContent,
  Type,
  headerText,
  uploadStream,
  type AddonApp,
  type ProjectEntityType,
} from '@pipewright/sdk';
import type { ReviewableListing } from './listing.js';
import type { ReviewAccess } from './permissions.js';
import {
  FolderParams,
  LabelBody,
  ListingQuery,
  ProductParams,
  ReviewableParams,
  Reviewable,
  SortBody,
  TaskParams,
  UploadHeaders,
  UploadQuery,
  VersionParams,
  VersionReviewables,
} from './schemas.js';
import type { ReviewableService } from './service.js';
import type { VersionThumbnail } from './version-thumbnail.js';

interface Deps {
  access: ReviewAccess;
  listing: ReviewableListing;
  service: ReviewableService;
  thumbnail: VersionThumbnail;
  log: FastifyBaseLogger;
}

const BASE = '/api/projects/:project_name';

const filterOf = (query: ListingQuery) => ({ latest: query.latest, latestDone: query.latest_done });

/** The routes of the reviewables of versions, products, tasks and folders. */
export function reviewableRoutes({ access, listing, service, thumbnail, log }: Deps) {
  /** The upload reads the raw body itself, whatever its type: registered apart, so the PATCH routes keep JSON. */
  const upload = async (app: AddonApp) => {
    app.removeAllContentTypeParsers();
    // The body is left unread here: the route checks the caller, the type and the size first, then streams it.
    app.addContentTypeParser('*', (_request, _payload, done) => done(null, undefined));

    app.post(
      `${BASE}/versions/:version_id/reviewables`,
      {
        schema: {
          summary: 'Upload a reviewable (a video or an image, as the raw body) for a version',
          description:
            'Headers: Content-Type (video/*, image/* or application/mxf; others 415) and X-File-Name. The file ' +
            'is stored, described by ffprobe (400 when it is not a readable video or image) and added to the ' +
            "version's activity feed as a reviewable; the uploader watches the version. A version without a " +
            'thumbnail gets one from the upload. Needs publish rights on the version. Nothing is transcoded: ' +
            'availability tells whether browsers can play the file as it is.',
          params: VersionParams,
          querystring: UploadQuery,
          headers: UploadHeaders,
          response: { 200: Reviewable },
        },
      },
      async (request, reply) => {
        const input = {
          filename: headerText(request.headers['x-file-name']),
          contentType: request.headers['content-type'].trim(),
          label: request.query.label || null,
          declaredSize: request.headers['content-length'] ? Number(request.headers['content-length']) : null,
        };
        let body: Readable | null = null;
        let project: string;
        let uploaded;
        try {
          const checked = await service.checkUpload(
            request.caller,
            request.params.project_name,
            request.params.version_id,
            input,
          );
          project = checked.project;
          body = uploadStream(request.raw);
          uploaded = await service.upload(request.caller, project, checked.version, body, input);
        } catch (error) {
          body?.destroy();
          // The rest of a refused body is not worth reading: the connection closes after the answer.
          if (!request.raw.readableEnded) reply.header('connection', 'close');
          throw error;
        }
        const { reviewable, version } = uploaded;
        if (!version.thumbnailId) {
          // A thumbnail is a convenience: an upload that is stored stays stored if it cannot be made.
          await thumbnail
            .fillFromFile(request.caller, project, version.id, reviewable.fileId)
            .catch((error) =>
              log.warn({ err: error, version: version.id }, 'no thumbnail from the reviewable'),
            );
        }
        return reply.code(200).send(reviewable);
      },
    );
  };

  return async (app: AddonApp) => {
    await app.register(upload);

    app.get(
      `${BASE}/versions/:version_id/reviewables`,
      {
        schema: {
          summary: 'The reviewables of a version',
          description:
            'latest and latest_done are accepted for symmetry and ignored: one version is answered.',
          params: VersionParams,
          querystring: ListingQuery,
          response: { 200: VersionReviewables },
        },
      },
      async (request) => {
        const project = await access.project(request.caller, request.params.project_name);
        const version = await access.readable(request.caller, project, 'version', request.params.version_id);
        return listing.ofVersion(project, version);
      },
    );

    const lists: {
      type: Exclude<ProjectEntityType, 'version' | 'representation' | 'workfile'>;
      params: any;
    }[] = [
      { type: 'product', params: ProductParams },
      { type: 'task', params: TaskParams },
      { type: 'folder', params: FolderParams },
    ];
    for (const { type, params } of lists) {
      app.get(
        `${BASE}/${type}s/:${type}_id/reviewables`,
        {
          schema: {
            summary: `The versions of a ${type} with their reviewables`,
            description:
              type === 'folder'
                ? 'Versions of the products directly in the folder (not in its subfolders), by version number.'
                : 'By version number.',
            params,
            querystring: ListingQuery,
            response: { 200: Type.Array(VersionReviewables) },
          },
        },
        async (request) => {
          const { project_name, ...ids } = request.params as Record<string, string>;
          const project = await access.project(request.caller, project_name);
          const entity = await access.readable(request.caller, project, type, ids[`${type}_id`]);
          const filter = filterOf(request.query as ListingQuery);
          if (type === 'product') return listing.ofProduct(request.caller, project, entity, filter);
          if (type === 'task') return listing.ofTask(request.caller, project, entity, filter);
          return listing.ofFolder(request.caller, project, entity, filter);
        },
      );
    }

    app.patch(
      `${BASE}/versions/:version_id/reviewables`,
      {
        schema: {
          summary: "Put a version's reviewables in order (every reviewable activity id of the version, once)",
          description:
            'Managers reorder any version; others need publish rights on the version and to have uploaded all ' +
            'of its reviewables. 422 when the list is not exactly the reviewables of the version.',
          params: VersionParams,
          body: SortBody,
          response: { 204: NoContent },
        },
      },
      async (request) => {
        await service.sort(
          request.caller,
          request.params.project_name,
          request.params.version_id,
          request.body.sort,
        );
      },
    );

    app.patch(
      `${BASE}/versions/:version_id/reviewables/:activity_id`,
      {
        schema: {
          summary: 'Rename a reviewable (its uploader or a manager)',
          params: ReviewableParams,
          body: LabelBody,
          response: { 204: NoContent },
        },
      },
      async (request) => {
        await service.relabel(
          request.caller,
          request.params.project_name,
          request.params.version_id,
          request.params.activity_id,
          request.body.label,
        );
      },
    );
  };
}
