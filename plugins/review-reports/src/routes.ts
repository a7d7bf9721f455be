import { sendDownload, type AddonApp } from '@pipewright/sdk';
import { ListParams, VersionParams } from './schemas.js';
import type { ReviewReports } from './service.js';

const DESCRIPTION =
  'Per version: its thumbnail, status, status changes, each comment with its frame and timecode, and every ' +
  'annotated frame of its reviewables drawn over the frame. Versions the caller may not read are left out.';

/** Review reports as PDF files. */
export function reportRoutes(reports: ReviewReports) {
  return async (app: AddonApp) => {
    app.get(
      '/api/projects/:project_name/lists/:list_id/review-report',
      {
        schema: {
          summary: 'A PDF report of the review of a list of versions (a review session)',
          description: DESCRIPTION,
          params: ListParams,
          produces: ['application/pdf'],
        },
      },
      async ({ caller, params }, reply) =>
        sendDownload(reply, await reports.ofList(caller, params.project_name, params.list_id)),
    );

    app.get(
      '/api/projects/:project_name/versions/:version_id/review-report',
      {
        schema: {
          summary: 'A PDF report of the review of one version',
          description: DESCRIPTION,
          params: VersionParams,
          produces: ['application/pdf'],
        },
      },
      async ({ caller, params }, reply) =>
        sendDownload(reply, await reports.ofVersion(caller, params.project_name, params.version_id)),
    );
  };
}
