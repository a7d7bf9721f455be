import type { Entity } from '../model';

// The folders and tasks as the GraphQL API answers them, and how the screen's entities are made of them.

export const FOLDER_FIELDS = `id name label folderType status tags parentId path thumbnailId hasChildren hasTasks allAttrib ownAttrib`;
// The whole project's folders without hasChildren and hasTasks: the lists built from the read tell those, and the
// server answers a third faster without them.
export const ALL_FOLDER_FIELDS = FOLDER_FIELDS.replace(' hasChildren hasTasks', '');
export const TASK_FIELDS = `id name label taskType status tags folderId path thumbnailId assignees allAttrib ownAttrib`;

interface CommonNode {
  id: string;
  name: string;
  label: string | null;
  status: string;
  tags: string[];
  path: string;
  thumbnailId: string | null;
  allAttrib: string;
  ownAttrib: string[];
}

export interface FolderNode extends CommonNode {
  folderType: string;
  parentId: string | null;
  hasChildren?: boolean;
  hasTasks?: boolean;
}

export interface TaskNode extends CommonNode {
  taskType: string;
  folderId: string;
  assignees: string[];
}

/** What folders and tasks share, read the same way. */
function common(node: CommonNode) {
  return {
    id: node.id,
    name: node.name,
    label: node.label,
    status: node.status,
    tags: node.tags,
    path: node.path,
    attrib: JSON.parse(node.allAttrib),
    ownAttrib: node.ownAttrib,
    thumbnailId: node.thumbnailId,
  };
}

export function folderEntity(node: FolderNode): Entity {
  return {
    kind: 'folder',
    ...common(node),
    type: node.folderType,
    parentId: node.parentId,
    hasChildren: node.hasChildren ?? false,
    hasTasks: node.hasTasks ?? false,
    assignees: [],
  };
}

export function taskEntity(node: TaskNode): Entity {
  return {
    kind: 'task',
    ...common(node),
    type: node.taskType,
    parentId: node.folderId,
    hasChildren: false,
    hasTasks: false,
    assignees: node.assignees,
  };
}
