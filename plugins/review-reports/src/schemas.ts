import { Id, ProjectName, Type } from '@pipewright/sdk';

export const ListParams = Type.Object({ project_name: ProjectName, list_id: Id });
export const VersionParams = Type.Object({ project_name: ProjectName, version_id: Id });
