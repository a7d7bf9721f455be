import { createServiceRef } from '@pipewright/sdk';
import type { FolderAccessPolicy, Permissions, RequestUser } from '@pipewright/sdk';

/** Provided by the access addon: what access groups allow a caller, and where in the folder tree. */
export interface AccessControl extends FolderAccessPolicy {
  /** The caller's combined permissions in a project (everything allowed for managers and above). */
  permissions(caller: RequestUser, projectName: string): Promise<Permissions>;
}

/** The access service of the access addon. */
export const accessRef = createServiceRef<AccessControl>({ addon: 'access', id: 'access' });
