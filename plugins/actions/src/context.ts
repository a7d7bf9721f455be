import {
  Forbidden,
  isManagerOrAbove,
  type ActionContext,
  type ActionEntityType,
  type ActionManifest,
  type RequestUser,
  type SimpleActionManifest,
} from '@pipewright/sdk';
import type { ActionContextBody } from './schemas.js';

// Where an action is asked for (the context) and who asks: which actions apply there, and who may run them.

/**
 * A context with every field present, whatever the client left out, read as AYON reads it: without a project the
 * entity fields mean nothing (global actions), and an entity type without ids selects none.
 */
export function toContext(body: ActionContextBody): ActionContext {
  const projectName = body.projectName || null;
  const entityType = projectName ? ((body.entityType ?? null) as ActionEntityType | null) : null;
  return {
    projectName,
    entityType,
    entityIds: entityType ? (body.entityIds ?? []) : null,
    entitySubtypes: projectName ? (body.entitySubtypes ?? null) : null,
    formData: body.formData ?? null,
  };
}

/**
 * Whether a simple action applies to a context, by AYON's rules: the same entity type; a project-wide action
 * always applies to its project; otherwise a selection, of one entity unless the action takes several, and a
 * shared subtype when the action names subtypes.
 */
export function appliesTo(action: SimpleActionManifest, context: ActionContext): boolean {
  if ((action.entityType ?? null) !== context.entityType) return false;
  if (!context.entityType) return true;
  if (context.entityType === 'project') return true;
  const selected = context.entityIds?.length ?? 0;
  if (selected === 0) return false;
  if (!action.allowMultiselection && selected > 1) return false;
  if (!action.entitySubtypes?.length) return true;
  const subtypes = context.entitySubtypes ?? [];
  if (context.entityType === 'list')
    return subtypes.some((subtype) => listSubtypeMatches(action.entitySubtypes!, subtype));
  const wanted = new Set(action.entitySubtypes);
  return subtypes.some((subtype) => wanted.has(subtype));
}

/**
 * A list's subtype is "<entity type>:<list type>" ("version:review-session"); an action's subtype names the entity
 * type and optionally the list type, so "version" matches every list of versions.
 */
function listSubtypeMatches(actionSubtypes: string[], contextSubtype: string): boolean {
  const [entity, listType = null] = contextSubtype.split(/:(.*)/s);
  return actionSubtypes.some((subtype) => {
    const [wantedEntity, wantedList = null] = subtype.split(/:(.*)/s);
    return wantedEntity === entity && (wantedList === null || wantedList === listType);
  });
}

/** Whether the user's level lets them run an action that is only for admins or managers. */
export function mayRun(action: ActionManifest, user: RequestUser): boolean {
  if (action.adminOnly && !(user.isAdmin || user.isService)) return false;
  if (action.managerOnly && !isManagerOrAbove(user)) return false;
  return true;
}

/** Normal users reach a project only through an access group on it (project names compare case-insensitively). */
export function requireProjectAccess(user: RequestUser, projectName: string | null): void {
  if (!projectName || isManagerOrAbove(user)) return;
  const wanted = projectName.toLowerCase();
  if (!Object.keys(user.accessGroups).some((name) => name.toLowerCase() === wanted)) {
    throw new Forbidden(`You do not have access to project ${projectName}`);
  }
}
