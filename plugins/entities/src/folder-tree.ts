import type { RowChange } from './processor.js';
import { Utf8Writer } from './utf8-writer.js';

// Separators of the text records the folder queries answer (see folderRecords in routes.ts).
export const RECORD = '\x1e';
export const FIELD = '\x1f';
export const TASK = '\x1d';

/** A folder as /hierarchy shows it. */
interface TreeFolder {
  id: string;
  name: string;
  label: string | null;
  status: string;
  folderType: string;
  active: boolean;
  parent: TreeFolder | null;
  children: TreeFolder[];
  /** Whether children are in name order: a folder added, renamed or moved in unsorts its new siblings. */
  sorted: boolean;
  /** The names of the folder's tasks, in order. */
  taskNames: string[];
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

function newFolder(fields: Omit<TreeFolder, 'children' | 'sorted' | 'taskNames'>): TreeFolder {
  return { ...fields, children: [], sorted: true, taskNames: [] };
}

function detach(folder: TreeFolder): void {
  const siblings = folder.parent!.children;
  siblings.splice(siblings.indexOf(folder), 1);
}

// The folder fields the tree shows, as columns of a folder row.
const SHOWN_COLUMNS = ['name', 'label', 'status', 'folder_type', 'parent_id', 'active'] as const;

/**
 * A project's folder tree with each folder's task names: what /hierarchy answers, kept in memory. Built from the
 * database once, then kept up to date from the rows this process commits (apply), so that creating thousands of
 * folders or changing a status costs the next reader no query.
 */
export class FolderTree {
  private readonly top = newFolder({
    id: '',
    name: '',
    label: null,
    status: '',
    folderType: '',
    active: true,
    parent: null,
  });
  private readonly folders = new Map<string, TreeFolder>();
  /** The whole tree's answer, once written; dropped by any change. */
  private whole: Buffer | null = null;

  /**
   * From folderRecords' text: records of id, path, label as JSON, status, folder type and task names, in tree
   * order. A folder whose parent is not listed (inactive, or out of the reader's sight) is left out with its subtree.
   */
  static fromRecords(records: string): FolderTree {
    const tree = new FolderTree();
    const open: { folder: TreeFolder; path: string }[] = []; // the previous folder and its ancestors, root first
    // Read field by field: splitting each record into an array of fields costs far more.
    for (let at = 0; at < records.length;) {
      const idEnd = records.indexOf(FIELD, at);
      const pathEnd = records.indexOf(FIELD, idEnd + 1);
      const labelEnd = records.indexOf(FIELD, pathEnd + 1);
      const statusEnd = records.indexOf(FIELD, labelEnd + 1);
      const typeEnd = records.indexOf(FIELD, statusEnd + 1);
      let end = records.indexOf(RECORD, typeEnd + 1);
      if (end < 0) end = records.length;
      const id = records.slice(at, idEnd);
      const path = records.slice(idEnd + 1, pathEnd);
      const label = records.slice(pathEnd + 1, labelEnd);
      const tasks = records.slice(typeEnd + 1, end);
      const status = records.slice(labelEnd + 1, statusEnd);
      const folderType = records.slice(statusEnd + 1, typeEnd);
      at = end + 1;
      // Tree order lists each subtree whole: a folder that is not an ancestor of this one is done with.
      while (open.length) {
        const above = open[open.length - 1].path;
        if (path.charCodeAt(above.length) === 47 /* / */ && path.startsWith(above)) break;
        open.pop();
      }
      const parentEnd = path.lastIndexOf('/');
      let parent = tree.top;
      if (parentEnd >= 0) {
        const above = open[open.length - 1];
        if (!above || above.path.length !== parentEnd) continue;
        parent = above.folder;
      }
      const folder = newFolder({
        id,
        name: path.slice(parentEnd + 1),
        label: label === 'null' ? null : (JSON.parse(label) as string),
        status,
        folderType,
        active: true,
        parent,
      });
      if (tasks) folder.taskNames = tasks.split(TASK).sort(byteOrder);
      parent.children.push(folder);
      tree.folders.set(id, folder);
      open.push({ folder, path });
    }
    return tree;
  }

  /**
   * Take in the rows a transaction of this process committed. False when the tree cannot tell what they change
   * (a folder it leaves out comes into sight, or it disagrees with what they say was there): read it again.
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
    const folder = this.folders.get(before.id);
    if (!after) {
      if (folder) this.remove(folder);
      return true;
    }
    const changed = SHOWN_COLUMNS.filter((column) => (before[column] ?? null) !== (after[column] ?? null));
    if (!changed.length) return true;
    // A folder left out (inactive itself or below one) stays out unless it is activated or moved.
    if (!folder) return !changed.includes('active') && !changed.includes('parent_id');
    this.whole = null;
    folder.name = after.name;
    folder.label = after.label ?? null;
    folder.status = after.status;
    folder.folderType = after.folder_type;
    folder.active = after.active !== false;
    if (changed.includes('parent_id')) {
      const parent = after.parent_id ? this.folders.get(after.parent_id) : this.top;
      if (!parent) return false;
      detach(folder);
      folder.parent = parent;
      parent.children.push(folder);
    }
    if (changed.includes('name') || changed.includes('parent_id')) folder.parent!.sorted = false;
    return true;
  }

  private add(row: Row): boolean {
    // Already here: read from the database after its transaction committed. Cannot happen; read again if it does.
    if (this.folders.has(row.id)) return false;
    const parent = row.parent_id ? this.folders.get(row.parent_id) : this.top;
    // Below a folder the tree leaves out: out of sight with it (until that one is activated or moved).
    if (!parent) return true;
    this.whole = null;
    const folder = newFolder({
      id: row.id,
      name: row.name,
      label: row.label ?? null,
      status: row.status,
      folderType: row.folder_type,
      active: row.active !== false,
      parent,
    });
    this.folders.set(folder.id, folder);
    parent.children.push(folder);
    parent.sorted = false;
    return true;
  }

  private remove(folder: TreeFolder): void {
    this.whole = null;
    detach(folder);
    const gone = [folder];
    for (const each of gone) {
      this.folders.delete(each.id);
      gone.push(...each.children);
    }
  }

  private applyTask(before: Row | null, after: Row | null): boolean {
    if (before && after && before.name === after.name && before.folder_id === after.folder_id) return true;
    if (before) {
      const names = this.folders.get(before.folder_id)?.taskNames;
      if (names) {
        const at = names.indexOf(before.name);
        if (at < 0) return false;
        names.splice(at, 1);
        this.whole = null;
      }
    }
    const names = after && this.folders.get(after.folder_id)?.taskNames;
    if (names) {
      let at = names.length;
      while (at > 0 && names[at - 1] > after.name) at--;
      names.splice(at, 0, after.name);
      this.whole = null;
    }
    return true;
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
    let count = 0;
    this.visit(this.top, kept, () => count++);
    const out = new Utf8Writer(count * 200);
    out.write(
      `{"detail":${JSON.stringify(`Hierarchy loaded with ${count} folders`)},"projectName":${JSON.stringify(projectName)},"hierarchy":[`,
    );
    this.writeChildren(out, this.top, '[]', kept);
    out.write(']}');
    return out.result();
  }

  /** The active folders below parent that are kept (all without a filter), in tree order. */
  private visit(parent: TreeFolder, kept: Set<TreeFolder> | null, each: (folder: TreeFolder) => void): void {
    if (!parent.sorted) {
      parent.children.sort(byName);
      parent.sorted = true;
    }
    for (const folder of parent.children) {
      if (!folder.active || (kept && !kept.has(folder))) continue;
      each(folder);
      this.visit(folder, kept, each);
    }
  }

  /** The folders a filter keeps: those it matches and their ancestors. */
  private matching({ types, search }: TreeFilter): Set<TreeFolder> {
    const kept = new Set<TreeFolder>();
    this.visit(this.top, null, (folder) => {
      if (types?.length && !types.includes(folder.folderType)) return;
      if (
        search &&
        !folder.name.toLowerCase().includes(search) &&
        !folder.label?.toLowerCase().includes(search)
      )
        return;
      // Climbing until a folder already kept: its ancestors are kept too.
      for (let each: TreeFolder | null = folder; each !== this.top && !kept.has(each!); each = each!.parent)
        kept.add(each!);
    });
    return kept;
  }

  /**
   * Each folder's JSON straight into the answer's bytes, its children's after it: building each level's list of
   * children as a string of its own would copy the deepest folders' JSON once per level above them.
   */
  private writeChildren(
    out: Utf8Writer,
    parent: TreeFolder,
    parents: string,
    kept: Set<TreeFolder> | null,
  ): void {
    let first = true;
    for (const folder of parent.children) {
      if (!folder.active || (kept && !kept.has(folder))) continue;
      const name = JSON.stringify(folder.name);
      const tasks = folder.taskNames;
      // One string per folder: far fewer writes than one per piece.
      out.write(
        `${first ? '{' : ',{'}"id":"${folder.id}","name":${name},"label":${JSON.stringify(folder.label)},` +
          `"status":${JSON.stringify(folder.status)},"folderType":${JSON.stringify(folder.folderType)},` +
          `"hasTasks":${tasks.length > 0},"taskNames":${tasks.length ? JSON.stringify(tasks) : '[]'},` +
          `"parents":${parents},"children":[`,
      );
      this.writeChildren(
        out,
        folder,
        parents === '[]' ? `[${name}]` : `${parents.slice(0, -1)},${name}]`,
        kept,
      );
      out.write(']}');
      first = false;
    }
  }
}
