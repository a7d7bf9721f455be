import { BadRequest, NotFound, type Download, type RequestUser } from '@pipewright/sdk';
import type { EntityListDirectory } from '@pipewright/plugin-lists/api';
import type { ProjectDirectory } from '@pipewright/plugin-projects/api';
import { renderReport } from './pdf.js';
import { versionReport, type ReportDeps, type VersionReport } from './report-data.js';

/** A report holds at most this many versions: more is a list to split, not one document. */
const MAX_VERSIONS = 200;
const PDF = 'application/pdf';
const fileSafe = (name: string) => name.replace(/[^\w.-]+/g, '_').slice(0, 80) || 'review';

/**
 * Review reports as PDF: of a list of versions (a review session) or of one version. A report shows what the
 * caller may read: versions of the list outside the caller's access are left out.
 */
export class ReviewReports {
  constructor(
    private readonly deps: ReportDeps & { projects: ProjectDirectory; lists: EntityListDirectory },
  ) {}

  async ofList(caller: RequestUser, projectName: string, listId: string): Promise<Download> {
    const project = (await this.deps.projects.require(caller, projectName)).name;
    const list = await this.deps.lists.get(caller, project, listId);
    if (list.entityType !== 'version')
      throw new BadRequest(
        `A review report covers a list of versions; ${list.label} lists ${list.entityType}s`,
      );
    if (list.items.length > MAX_VERSIONS)
      throw new BadRequest(
        `${list.label} has ${list.items.length} versions; a report covers at most ${MAX_VERSIONS}`,
      );
    const versions: VersionReport[] = [];
    for (const item of list.items) {
      const version = await this.deps.entities.get(project, 'version', item.entityId, caller);
      if (version) versions.push(await versionReport(this.deps, caller, project, version));
    }
    const cover = { title: `Review: ${list.label}`, project, by: caller.name, at: new Date() };
    return {
      fileName: `${fileSafe(list.label)}.pdf`,
      contentType: PDF,
      body: await renderReport(cover, versions),
    };
  }

  async ofVersion(caller: RequestUser, projectName: string, versionId: string): Promise<Download> {
    const project = (await this.deps.projects.require(caller, projectName)).name;
    const version = await this.deps.entities.get(project, 'version', versionId, caller);
    if (!version) throw new NotFound(`Version ${versionId} not found in project ${project}`);
    const report = await versionReport(this.deps, caller, project, version);
    const cover = { title: `Review: ${report.title}`, project, by: caller.name, at: new Date() };
    return {
      fileName: `${fileSafe(report.title)}.pdf`,
      contentType: PDF,
      body: await renderReport(cover, [report]),
    };
  }
}
