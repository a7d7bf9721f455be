import { NoContent, type AddonApp } from '@pipewright/sdk';
import { MarkNotices, NoticeList, NoticeQuery } from './schemas.js';
import type { NoticeService } from './service.js';

/** The caller's own notices: listed, and marked read, unread or archived. */
export function noticeRoutes(notices: NoticeService) {
  return async (app: AddonApp) => {
    app.get(
      '/api/notices',
      {
        schema: {
          summary: "The caller's notices from the server, newest first",
          querystring: NoticeQuery,
          response: { 200: NoticeList },
        },
      },
      async (request) => notices.list(request.caller, request.query),
    );

    app.post(
      '/api/notices',
      {
        schema: {
          summary: "Mark the caller's notices read, unread or archived",
          body: MarkNotices,
          response: { 204: NoContent },
        },
      },
      async (request) => {
        await notices.mark(request.caller, request.body.ids, request.body.status);
      },
    );
  };
}
