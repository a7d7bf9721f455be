import { Utf8Writer } from '@pipewright/sdk';
import type { RowChange } from '../write/batch.js';
import { FIELD, RECORD, TASK } from './folder-records.js';

/**
 * What folders share in the answer: status, type and task names, with their JSON members. A few looks serve
 * thousands of folders, which keeps a large tree to one object per folder (fewer to build and to collect).
 */
interface Look {
  status: string;
  folderType: string;
  /** In order. */
  taskNames: readonly string[];
  json: string;
}

/** hasTasks and taskNames as JSON members (the hierarchy's and the flat folder list's), names in order. */
export const taskMembers = (taskNames: readonly string[]): string =>
  `"hasTasks":${taskNames.length > 0},"taskNames":${JSON.stringify(taskNames)}`;

function look(status: string, folderType: string, taskNames: readonly string[]): Look {
  return {
    status,
    folderType,
    taskNames,
    json: `${JSON.stringify({ status, folderType }).slice(1, -1)},${taskMembers(taskNames)}`,
  };
}

/** A folder as /hierarchy shows it. */
class TreeFolder {
  /** Null until it has any. */
  children: TreeFolder[] | null = null;
  /** Whether children are in name order: a folder added, renamed or moved in unsorts its new siblings. */
  sorted = true;
  active = true;

  constructor(
    readonly id: string,
    public name: string,
    public label: string | null,
    public look: Look,
    public parent: TreeFolder | null,
  ) {}

  adopt(child: TreeFolder): void {
    (this.children ??= []).push(child);
    child.parent = this;
  }
}

/** What a filtered hierarchy keeps: folders of these types whose name or label holds this text (lower case). */
export interface TreeFilter {
  types?: string[];
  search?: string;
}

type Row = Record<string, any>;

// Names are ASCII (EntityName), so comparing UTF-16 units is comparing bytes: the same order on every server.
const byteOrder = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
const byName = (a: TreeFolder, b: TreeFolder) => byteOrder(a.name, b.name);

function detach(folder: TreeFolder): void {
  const siblings = folder.parent!.children!;
  siblings.splice(siblings.indexOf(folder), 1);
}

// The looks a tree keeps for the changes it takes in (see FolderTree.look).
const MAX_LOOKS = 10_000;

// The folder fields the tree shows, as columns of a folder row.
const SHOWN_COLUMNS = ['name', 'label', 'status', 'folder_type', 'parent_id', 'active'] as const;

/**
 * A project's folder tree with each folder's task names: what /hierarchy answers, kept in memory. Built from the
 * database once, then kept up to date from the rows this process commits (apply), so that creating thousands of
 * folders or changing a status costs the next reader no query.
 */
export class FolderTree {
  private readonly top = new TreeFolder('', '', null, look('', '', []), null);
  private readonly folders = new Map<string, TreeFolder>();
  /** The whole tree's answer, once written; dropped by any change. */
  private whole: Buffer | null = null;
  /** Looks given by changes: a folder or task created is mostly like the one before. */
  private readonly looks = new Map<string, Look>();

  /**
   * From folderRecords' text: records of id, path, label as JSON, status, folder type and task names, in tree
   * order. A folder whose parent is not listed (inactive, or out of the reader's sight) is left out with its subtree.
   */
  static fromRecords(records: string): FolderTree {
    const tree = new FolderTree();
    // The previous folder and its ancestors, root first, and their paths.
    const open: TreeFolder[] = [];
    const openPaths: string[] = [];
    // Looks by their text in the records (status, type and the task names as listed).
    const looks = new Map<string, Look>();
    // Read field by field: splitting each record into an array of fields costs far more.
    for (let at = 0; at < records.length;) {
      const idEnd = records.indexOf(FIELD, at);
      const pathEnd = records.indexOf(FIELD, idEnd + 1);
      const labelEnd = records.indexOf(FIELD, pathEnd + 1);
      let end = records.indexOf(RECORD, labelEnd + 1);
      if (end < 0) end = records.length;
      const path = records.slice(idEnd + 1, pathEnd);
      // Tree order lists each subtree whole: a folder that is not an ancestor of this one is done with.
      while (open.length) {
        const above = openPaths[openPaths.length - 1];
        if (path.charCodeAt(above.length) === 47 /* / */ && path.startsWith(above)) break;
        open.pop();
        openPaths.pop();
      }
      const parentEnd = path.lastIndexOf('/');
      let parent = tree.top;
      if (parentEnd >= 0) {
        if (!open.length || openPaths[openPaths.length - 1].length !== parentEnd) {
          at = end + 1;
          continue;
        }
        parent = open[open.length - 1];
      }
      const lookText = records.slice(labelEnd + 1, end);
      let shared = looks.get(lookText);
      if (!shared) {
        const [status, folderType, tasks] = lookText.split(FIELD);
        shared = look(status, folderType, tasks ? tasks.split(TASK).sort(byteOrder) : []);
        looks.set(lookText, shared);
      }
      const label = records.slice(pathEnd + 1, labelEnd);
      const folder = new TreeFolder(
        records.slice(at, idEnd),
        path.slice(parentEnd + 1),
        label === 'null' ? null : (JSON.parse(label) as string),
        shared,
        null,
      );
      parent.adopt(folder);
      tree.folders.set(folder.id, folder);
      open.push(folder);
      openPaths.push(path);
      at = end + 1;
    }
    return tree;
  }

  /**
   * Take in the rows a transaction of this process committed. False when the tree cannot tell what they change:
   * they name a folder it does not hold (one it leaves out, below an inactive folder, or one whose creation has not
   * reached it yet), or disagree with what it holds. Then it must be read again.
   */
  apply(changes: readonly RowChange[]): boolean {
    for (const change of changes) {
      const applied =
        change.type === 'folder'
          ? this.applyFolder(change.before, change.after)
          : change.type === 'task'
            ? this.applyTask(change.before, change.after)
            : true;
      if (!applied) return false;
    }
    return true;
  }

  private applyFolder(before: Row | null, after: Row | null): boolean {
    if (!before) return this.add(after!);
    const changed = after
      ? SHOWN_COLUMNS.filter((column) => (before[column] ?? null) !== (after[column] ?? null))
      : SHOWN_COLUMNS;
    if (!changed.length) return true;
    const folder = this.folders.get(before.id);
    if (!folder) return false;
    if (!after) {
      this.remove(folder);
      return true;
    }
    this.whole = null;
    folder.name = after.name;
    folder.label = after.label ?? null;
    folder.active = after.active !== false;
    if (after.status !== folder.look.status || after.folder_type !== folder.look.folderType)
      folder.look = this.look(after.status, after.folder_type, folder.look.taskNames);
    if (changed.includes('parent_id')) {
      const parent = after.parent_id ? this.folders.get(after.parent_id) : this.top;
      if (!parent) return false;
      detach(folder);
      parent.adopt(folder);
    }
    if (changed.includes('name') || changed.includes('parent_id')) folder.parent!.sorted = false;
    return true;
  }

  private add(row: Row): boolean {
    // Already here: read from the database after its transaction committed. Cannot happen; read again if it does.
    if (this.folders.has(row.id)) return false;
    const parent = row.parent_id ? this.folders.get(row.parent_id) : this.top;
    if (!parent) return false;
    this.whole = null;
    const folder = new TreeFolder(
      row.id,
      row.name,
      row.label ?? null,
      this.look(row.status, row.folder_type, []),
      null,
    );
    folder.active = row.active !== false;
    this.folders.set(folder.id, folder);
    parent.adopt(folder);
    parent.sorted = false;
    return true;
  }

  private remove(folder: TreeFolder): void {
    this.whole = null;
    detach(folder);
    const gone = [folder];
    for (const each of gone) {
      this.folders.delete(each.id);
      if (each.children) gone.push(...each.children);
    }
  }

  private applyTask(before: Row | null, after: Row | null): boolean {
    if (before && after && before.name === after.name && before.folder_id === after.folder_id) return true;
    const from = before && this.folders.get(before.folder_id);
    const to = after && this.folders.get(after.folder_id);
    if ((before && !from) || (after && !to)) return false;
    if (from) {
      const names = [...from.look.taskNames];
      const at = names.indexOf(before.name);
      if (at < 0) return false;
      names.splice(at, 1);
      from.look = this.look(from.look.status, from.look.folderType, names);
      this.whole = null;
    }
    if (to) {
      const names = [...to.look.taskNames];
      let at = names.length;
      while (at > 0 && names[at - 1] > after.name) at--;
      names.splice(at, 0, after.name);
      to.look = this.look(to.look.status, to.look.folderType, names);
      this.whole = null;
    }
    return true;
  }

  private look(status: string, folderType: string, taskNames: readonly string[]): Look {
    const key = `${status}${FIELD}${folderType}${FIELD}${taskNames.join(TASK)}`;
    let found = this.looks.get(key);
    if (!found) {
      // Combinations come and go over the life of a kept tree: start over rather than keep them all.
      if (this.looks.size >= MAX_LOOKS) this.looks.clear();
      this.looks.set(key, (found = look(status, folderType, taskNames)));
    }
    return found;
  }

  /** The whole tree's answer: written once, then kept until the tree changes. */
  answer(projectName: string): Buffer {
    return (this.whole ??= this.write(projectName));
  }

  /**
   * The /hierarchy answer: each active folder below active ones, children in name order, each with its ancestors'
   * names; with a filter, only the folders it matches and their ancestors.
   */
  write(projectName: string, filter?: TreeFilter): Buffer {
    const kept = filter ? this.matching(filter) : null;
    const count = this.count(this.top, kept);
    const out = new Utf8Writer(count * 200);
    out.write(
      `{"detail":${JSON.stringify(`Hierarchy loaded with ${count} folders`)},"projectName":${JSON.stringify(projectName)},"hierarchy":[`,
    );
    this.writeChildren(out, this.top, '[]', kept);
    out.write(']}');
    return out.result();
  }

  /** The active folders below parent that are kept (all without a filter); puts their children in order. */
  private count(parent: TreeFolder, kept: Set<TreeFolder> | null): number {
    const children = parent.children;
    if (!children) return 0;
    if (!parent.sorted) {
      children.sort(byName);
      parent.sorted = true;
    }
    let count = 0;
    for (const folder of children)
      if (folder.active && (!kept || kept.has(folder))) count += 1 + this.count(folder, kept);
    return count;
  }

  /** The folders a filter keeps: those it matches and their ancestors. */
  private matching({ types, search }: TreeFilter): Set<TreeFolder> {
    const kept = new Set<TreeFolder>();
    const visit = (parent: TreeFolder) => {
      for (const folder of parent.children ?? []) {
        if (!folder.active) continue;
        visit(folder);
        if (types?.length && !types.includes(folder.look.folderType)) continue;
        const label = folder.label?.toLowerCase();
        if (search && !folder.name.toLowerCase().includes(search) && !label?.includes(search)) continue;
        // Climbing until a folder already kept: its ancestors are kept too.
        for (let each = folder; each !== this.top && !kept.has(each); each = each.parent!) kept.add(each);
      }
    };
    visit(this.top);
    return kept;
  }

  /**
   * Each folder's JSON straight into the answer's bytes, its children's after it: building each level's list of
   * children as a string of its own would copy the deepest folders' JSON once per level above them. Names need no
   * escaping (EntityName allows letters, digits, _ . and - only).
   */
  private writeChildren(
    out: Utf8Writer,
    parent: TreeFolder,
    parents: string,
    kept: Set<TreeFolder> | null,
  ): void {
    let first = true;
    for (const folder of parent.children ?? []) {
      if (!folder.active || (kept && !kept.has(folder))) continue;
      const label = folder.label === null ? 'null' : JSON.stringify(folder.label);
      // One string per folder: far fewer writes than one per piece.
      out.write(
        `${first ? '{' : ',{'}"id":"${folder.id}","name":"${folder.name}","label":${label},${folder.look.json},` +
          `"parents":${parents},"children":[`,
      );
      if (folder.children)
        this.writeChildren(
          out,
          folder,
          parents === '[]' ? `["${folder.name}"]` : `${parents.slice(0, -1)},"${folder.name}"]`,
          kept,
        );
      out.write(']}');
      first = false;
    }
  }
}
