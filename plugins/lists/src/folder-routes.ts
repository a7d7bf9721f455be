import { type AddonApp, NoContent, ProjectParams } from '@pipewright/sdk';
import type { ListFolderService } from './folders.js';
import { P, preValidation, projectIn } from './route-conventions.js';
import { FolderCreate, FolderOrder, FolderParams, FolderPatch, IdResponse, ListFolders } from './schemas.js';

/** Routes of the folders that arrange a project's lists. */
export function listFolderRoutes(folders: ListFolderService) {
  return async (app: AddonApp) => {
    app.get(
      `${P}/entityListFolders`,
      {
        schema: {
          summary: 'The folders of the lists of a project',
          params: ProjectParams,
          response: { 200: ListFolders },
        },
      },
      async (request) => folders.list(...projectIn(request)),
    );

    app.post(
      `${P}/entityListFolders`,
      {
        preValidation,
        schema: {
          summary: 'Create a folder for lists',
          description: 'Any user of the project; they own it. Answers 200 with the id, as AYON does.',
          params: ProjectParams,
          body: FolderCreate,
          response: { 200: IdResponse },
        },
      },
      async (request) => ({ id: await folders.create(...projectIn(request), request.body) }),
    );

    app.post(
      `${P}/entityListFolders/order`,
      {
        schema: {
          summary: 'Set the order of list folders',
          params: ProjectParams,
          body: FolderOrder,
          response: { 204: NoContent },
        },
      },
      async (request) => folders.order(...projectIn(request), request.body.order),
    );

    app.patch(
      `${P}/entityListFolders/:folder_id`,
      {
        preValidation,
        schema: {
          summary: 'Change a list folder',
          description: 'Its owner or a manager. data merges; a folder cannot move inside itself.',
          params: FolderParams,
          body: FolderPatch,
          response: { 204: NoContent },
        },
      },
      async (request) => folders.patch(...projectIn(request), request.params.folder_id, request.body),
    );

    app.delete(
      `${P}/entityListFolders/:folder_id`,
      {
        schema: {
          summary: 'Delete a list folder',
          description: 'Its owner or a manager. Subfolders go with it; its lists stay, outside any folder.',
          params: FolderParams,
          response: { 204: NoContent },
        },
      },
      async (request) => folders.remove(...projectIn(request), request.params.folder_id),
    );
  };
}
