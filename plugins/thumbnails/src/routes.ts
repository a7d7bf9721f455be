import type { FastifyReply } from 'fastify';
import {
  type AddonApp,
  CreatedResponse,
  newId,
  NoContent,
  NotFound,
  ProjectParams,
  type ProjectRequest,
  type RequestUser,
} from '@pipewright/sdk';
import type { EntityDirectory } from '@pipewright/plugin-entities/api';
import type { ProjectDirectory } from '@pipewright/plugin-projects/api';
import type { EntityThumbnails } from './api.js';
import { EMPTY_PNG, readImage } from './image-type.js';
import { entityParams, ThumbnailParams, ThumbnailQuery } from './schemas.js';
import { thumbnailHash } from './entity-thumbnails.js';
import { THUMBNAIL_ENTITY_TYPES, type StoredThumbnail, type ThumbnailStore } from './service.js';

interface Deps {
  store: ThumbnailStore;
  thumbnails: EntityThumbnails;
  projects: ProjectDirectory;
  entities: EntityDirectory;
}

// An hour of browser caching is safe: entity uploads get fresh ids, and a replaced image bumps data.thumbnailHash,
// which clients put in their image URLs.
const CACHE_CONTROL = 'max-age=3600';
const UPLOAD_TYPES = ['image/png', 'image/jpeg', 'image/jpg', 'application/octet-stream'];
const UPLOAD_LIMIT = 50 * 1024 * 1024;

type Placeholder = 'empty' | 'none';

/** The image, or what the caller asked to get instead when there is none. */
function answer(
  reply: FastifyReply,
  image: StoredThumbnail | null,
  placeholder: Placeholder,
  missing: string,
) {
  if (image) {
    return reply
      .code(200)
      .header('content-type', image.mime)
      .header('cache-control', CACHE_CONTROL)
      .header('x-thumbnail-id', image.id)
      .header('x-thumbnail-time', image.createdAt.toISOString())
      .send(image.data);
  }
  if (placeholder === 'none') throw new NotFound(missing);
  // 203 tells clients that this is a stand-in, not the entity's image, while still giving them something to draw.
  return reply
    .code(203)
    .header('content-type', 'image/png')
    .header('cache-control', CACHE_CONTROL)
    .send(EMPTY_PNG);
}

const capitalised = (type: string) => `${type[0].toUpperCase()}${type.slice(1)}`;

export function thumbnailRoutes({ store, thumbnails, projects, entities }: Deps) {
  /** Tell every entity showing this image that it changed, through the entity write path (events included). */
  async function invalidate(caller: RequestUser, project: string, thumbnailId: string) {
    for (const entity of await store.users(project, thumbnailId)) {
      await entities.update(caller, project, entity.type, entity.id, {
        data: { thumbnailHash: thumbnailHash() },
      });
    }
  }

  /** Keep the image sent as the body under an id, in the project the path names; answers the project's name. */
  async function keepUpload(request: ProjectRequest & { body: unknown }, id: string) {
    const project = await projects.requireFor(request);
    const image = readImage(request.body);
    await store.put(project.name, id, image.mime, image.bytes, request.caller.name);
    return project.name;
  }

  return async (app: AddonApp) => {
    // Only this addon's routes take raw image bodies; JSON stays the rule everywhere else. Buffers keep the bytes
    // exactly as sent, whatever the client claims they are.
    app.addContentTypeParser(
      UPLOAD_TYPES,
      { parseAs: 'buffer', bodyLimit: UPLOAD_LIMIT },
      (_request, body, done) => done(null, body),
    );

    app.post(
      '/api/projects/:project_name/thumbnails',
      {
        schema: {
          summary: 'Store a PNG or JPEG image sent as the raw body; answers its new id',
          // 200 as AYON answers here (its entity thumbnail routes answer 201, and so do ours).
          params: ProjectParams,
          response: { 200: CreatedResponse },
        },
      },
      async (request) => {
        const id = newId();
        await keepUpload(request, id);
        return { id };
      },
    );

    app.get(
      '/api/projects/:project_name/thumbnails/:thumbnail_id',
      {
        config: { access: 'manager' },
        schema: {
          summary: 'A thumbnail by id (managers only)',
          params: ThumbnailParams,
          querystring: ThumbnailQuery,
        },
      },
      async (request, reply) => {
        // Ids alone would let anyone with project access browse every image in it; AYON keeps this to managers.
        const project = await projects.requireFor(request);
        const image = await store.get(project.name, request.params.thumbnail_id);
        return answer(
          reply,
          image,
          request.query.placeholder,
          `Thumbnail ${request.params.thumbnail_id} not found in project ${project.name}`,
        );
      },
    );

    app.put(
      '/api/projects/:project_name/thumbnails/:thumbnail_id',
      {
        config: { access: 'manager' },
        schema: {
          summary: 'Create or replace the image stored under an id (managers only)',
          params: ThumbnailParams,
          response: { 204: NoContent },
        },
      },
      async (request) => {
        const project = await keepUpload(request, request.params.thumbnail_id);
        await invalidate(request.caller, project, request.params.thumbnail_id);
      },
    );

    for (const type of THUMBNAIL_ENTITY_TYPES) {
      const idParam = `${type}_id`;
      const Params = entityParams(idParam);
      const path = `/api/projects/:project_name/${type}s/:${idParam}/thumbnail`;

      app.get(
        path,
        {
          schema: {
            summary: `The thumbnail of a ${type}${type === 'folder' || type === 'task' ? ', else that of its newest version with one' : ''}`,
            params: Params,
            querystring: ThumbnailQuery,
          },
        },
        async (request, reply) => {
          const params = request.params as Record<string, string>;
          const project = await projects.require(request.caller, params.project_name);
          const entityId = params[idParam];
          const missing = `${capitalised(type)} ${entityId} has no thumbnail in project ${project.name}`;
          const entity = await entities.get(project.name, type, entityId, request.caller);
          // As in AYON, a missing entity is just one more case of "no image" for placeholder=empty: grids of
          // thumbnails keep drawing while entities are deleted under them.
          if (!entity)
            return answer(
              reply,
              null,
              request.query.placeholder,
              `${capitalised(type)} ${entityId} not found in project ${project.name}`,
            );
          const own = entity.thumbnailId ? await store.get(project.name, entity.thumbnailId) : null;
          const image =
            own ?? (entity.thumbnailId ? null : await store.fallback(project.name, type, entityId));
          return answer(reply, image, request.query.placeholder, missing);
        },
      );

      app.post(
        path,
        {
          schema: {
            summary: `Store a new thumbnail and make it the ${type}'s; the previous image keeps its id`,
            params: Params,
            response: { 201: CreatedResponse },
          },
        },
        async (request, reply) => {
          const params = request.params as Record<string, string>;
          const project = await projects.require(request.caller, params.project_name);
          const image = request.body as Buffer;
          const id = await thumbnails.set(request.caller, project.name, type, params[idParam], image);
          return reply.code(201).send({ id });
        },
      );
    }
  };
}
