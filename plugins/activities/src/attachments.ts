import { ValidationFailed } from '@pipewright/sdk';
import type { ProjectFiles } from '@pipewright/plugin-files/api';

/** A file as an activity lists it in data.files (AYON's keys, which its web app reads). */
export interface AttachedFile {
  id: string;
  filename?: string;
  size?: number;
  mime?: string;
  author?: string | null;
  created_at?: string;
  updated_at?: string;
}

/**
 * Files attached to activities: ids are checked against the project's files, described (name, size, type) and
 * linked to their activity, so the files addon knows which files are in use. Constructed without the files
 * service (an addon set without it), the ids are kept as given: nothing here can tell whether they exist.
 */
export class Attachments {
  constructor(private readonly files: ProjectFiles | null) {}

  /** Describe files for data.files; unknown ids are 422 problems under loc (only when files can be checked). */
  async describe(projectName: string, ids: string[], loc: (string | number)[]): Promise<AttachedFile[]> {
    const unique = [...new Set(ids)];
    if (!this.files) return unique.map((id) => ({ id }));
    const described: AttachedFile[] = [];
    const problems = [];
    for (const [index, id] of unique.entries()) {
      const file = await this.files.get(projectName, id);
      if (!file) {
        problems.push({
          loc: [...loc, index],
          msg: `File ${id} not found in this project`,
          type: 'value_error.missing',
        });
        continue;
      }
      const at = file.createdAt.toISOString();
      described.push({
        id: file.id,
        filename: file.name,
        size: file.size,
        mime: file.contentType,
        author: file.author,
        created_at: at,
        updated_at: at,
      });
    }
    if (problems.length) throw new ValidationFailed(problems);
    return described;
  }

  /** Link files to an activity, and unlink those it no longer lists, inside the activity's transaction. */
  async link(projectName: string, activityId: string, now: string[], before: string[] = []): Promise<void> {
    if (!this.files) return;
    const dropped = before.filter((id) => !now.includes(id));
    // Inside the caller's unit of work: the files service's writes join its transaction.
    if (dropped.length) await this.files.attach(projectName, dropped, null);
    if (now.length) await this.files.attach(projectName, now, activityId);
  }
}
