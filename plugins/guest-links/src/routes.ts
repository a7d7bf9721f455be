import { NoContent, type AddonApp } from '@pipewright/sdk';
import {
  LinkCreate,
  LinkCreated,
  LinkList,
  LinkLog,
  LinkParams,
  LinkQuery,
  ProjectParams,
} from './schemas.js';
import type { GuestLinkService } from './service.js';

const BASE = '/api/projects/:project_name/guest-links';

/** Guest links as the studio manages them (guest-routes.ts: as guests use them). */
export function linkRoutes(links: GuestLinkService) {
  return async (app: AddonApp) => {
    app.post(
      BASE,
      {
        schema: {
          summary: 'Make a guest link to a list of versions or to one version',
          description:
            'For managers and whoever may change the list (update level) or the version. The token and the URL of ' +
            "the guest page are answered this once: only the token's hash is kept. canApprove needs the rights to " +
            'change every version the link shows.',
          params: ProjectParams,
          body: LinkCreate,
          response: { 201: LinkCreated },
        },
      },
      async (request, reply) => {
        const created = await links.create(request.caller, request.params.project_name, request.body);
        return reply.code(201).send(created);
      },
    );

    app.get(
      BASE,
      {
        schema: {
          summary: "The project's guest links the caller may manage, newest first (never their tokens)",
          params: ProjectParams,
          querystring: LinkQuery,
          response: { 200: LinkList },
        },
      },
      async (request) => links.list(request.caller, request.params.project_name, request.query),
    );

    app.delete(
      `${BASE}/:guest_link_id`,
      {
        schema: {
          summary: 'Revoke a guest link',
          description:
            'Its guests are refused from then on (403) and every connection they hold open, media streams ' +
            'included, is closed in every server process. The link and its log stay, marked revoked.',
          params: LinkParams,
          response: { 204: NoContent },
        },
      },
      async (request) => {
        const { project_name, guest_link_id } = request.params;
        await links.revoke(request.caller, project_name, guest_link_id, request.ip);
      },
    );

    app.get(
      `${BASE}/:guest_link_id/log`,
      {
        schema: {
          summary:
            "A guest link's log: every open, download, comment, approval, refused password and revocation",
          params: LinkParams,
          response: { 200: LinkLog },
        },
      },
      async (request) => links.log(request.caller, request.params.project_name, request.params.guest_link_id),
    );
  };
}
