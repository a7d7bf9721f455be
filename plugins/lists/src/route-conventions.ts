import { Type, type RequestUser } from '@pipewright/sdk';
import { camelizeListBody } from './camelize.js';

// Paths, parameter names and statuses follow AYON's routes: updates of a list answer 204, the item routes
// (which return None in AYON) answer 200 with a null body, creating a list answers 201 with its summary.
export const P = '/api/projects/:project_name';
export const Done = Type.Null({ description: 'Done (AYON answers null)' });
export const preValidation = camelizeListBody;

/** The answer of a route that answers Done, once its work is. */
export async function done(work: Promise<unknown>): Promise<null> {
  await work;
  return null;
}

interface InProject {
  caller: RequestUser;
  params: { project_name: string };
}

/** The caller and the project the path names: what every method of the lists and their folders takes first. */
export const projectIn = (request: InProject) => [request.caller, request.params.project_name] as const;

/** The caller, the project and the list the path names. */
export const listIn = (request: InProject & { params: { entity_list_id: string } }) =>
  [...projectIn(request), request.params.entity_list_id] as const;
