import { sendDownload, type AddonApp, type TSchema } from '@pipewright/sdk';
import { ListParams, VersionParams } from './schemas.js';
import type { ReviewReports } from './service.js';

const DESCRIPTION =
  'Per version: its thumbnail, status, status changes, each comment with its frame and timecode, and every ' +
  'annotated frame of its reviewables drawn over the frame. Versions the caller may not read are left out.';

/** Review reports as PDF files. */
/** A report route's schema: a PDF of what params name. */
const report = <P extends TSchema>(summary: string, params: P) => ({
  schema: { summary, description: DESCRIPTION, params, produces: ['application/pdf'] },
});

export function reportRoutes(reports: ReviewReports) {
  return async (app: AddonApp) => {
    app.get(
      '/api/projects/:project_name/lists/:list_id/review-report',
      report('A PDF report of the review of a list of versions (a review session)', ListParams),
      async ({ caller, params }, reply) =>
        sendDownload(reply, await reports.ofList(caller, params.project_name, params.list_id)),
    );
    app.get(
      '/api/projects/:project_name/versions/:version_id/review-report',
      report('A PDF report of the review of one version', VersionParams),
      async ({ caller, params }, reply) =>
        sendDownload(reply, await reports.ofVersion(caller, params.project_name, params.version_id)),
    );
  };
}
