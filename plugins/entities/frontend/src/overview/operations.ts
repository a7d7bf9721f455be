import type { Operation, OperationResult, PipewrightClient } from '@pipewright/sdk/client';
import { messageOf } from '@pipewright/sdk/ui';
import type { Entity } from '../model';

/** An operation the server refused, said the way a coordinator reads it. */
export interface Refused {
  detail: string;
  errorCode?: string | null;
  entityId?: string | null;
}

/** The server's refusal of one operation, said the way a coordinator reads it. */
function refusal(
  failed: Pick<OperationResult, 'detail' | 'errorCode'> | undefined,
  entities: Map<string, Entity>,
  id?: string,
): string {
  const name = (id && entities.get(id)?.name) ?? 'This folder';
  if (failed?.errorCode === 'folder-locked')
    return `${name} holds published versions, so it cannot be renamed or moved`;
  return failed?.detail ?? 'The server refused the change';
}

/** Send operations as one atomic batch: null when done, else the refused operation. */
export async function sendOperations(
  client: PipewrightClient,
  project: string,
  entities: Map<string, Entity>,
  operations: Operation[],
): Promise<Refused | null> {
  try {
    const answer = await client.POST('/api/projects/{project_name}/operations', {
      params: { path: { project_name: project } },
      body: { operations },
    });
    if (answer.success) return null;
    const failed = answer.operations.find((o) => !o.success);
    return {
      detail: refusal(failed, entities, failed?.entityId ?? undefined),
      errorCode: failed?.errorCode,
      entityId: failed?.entityId,
    };
  } catch (failure) {
    return { detail: messageOf(failure) };
  }
}
