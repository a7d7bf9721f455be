import { attachment, type AddonApp } from '@pipewright/sdk';
import { ListParams, VersionParams } from './schemas.js';
import type { ReviewReports } from './service.js';

const DESCRIPTION =
  'Per version: its thumbnail, status, status changes, each comment with its frame and timecode, and every ' +
  'annotated frame of its reviewables drawn over the frame. Versions the caller may not read are left out.';

/** The answer's headers for a report: a PDF to save under its name. */
const asDownload = (fileName: string) => ({
  'content-type': 'application/pdf',
  'content-disposition': attachment(fileName),
});

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
      async (request, reply) => {
        const { project_name, list_id } = request.params;
        const { fileName, pdf } = await reports.ofList(request.caller, project_name, list_id);
        return reply.headers(asDownload(fileName)).send(pdf);
      },
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
      async (request, reply) => {
        const { project_name, version_id } = request.params;
        const { fileName, pdf } = await reports.ofVersion(request.caller, project_name, version_id);
        return reply.headers(asDownload(fileName)).send(pdf);
      },
    );
  };
}
