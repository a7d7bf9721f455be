import { type AddonApp, NoContent, ProjectParams } from '@pipewright/sdk';
import type { ProjectDirectory } from '@pipewright/plugin-projects/api';
import {
  MemberParams,
  MemberPut,
  TeamList,
  TeamParams,
  TeamPut,
  TeamsQuery,
  TeamsResponse,
} from './schemas.js';
import type { TeamService } from './service.js';

export function teamRoutes(teams: TeamService, projects: ProjectDirectory) {
  return async (app: AddonApp) => {
    app.get(
      '/api/projects/:project_name/teams',
      {
        schema: {
          summary: 'Teams of a project, with their leaders; members too with show_members',
          params: ProjectParams,
          querystring: TeamsQuery,
          response: { 200: TeamsResponse },
        },
      },
      async (request) => {
        const project = await projects.requireFor(request);
        return teams.list(project.name, request.query.show_members);
      },
    );

    app.patch(
      '/api/projects/:project_name/teams',
      {
        config: { access: 'manager' },
        schema: {
          summary: "Replace all of a project's teams with this list (managers)",
          params: ProjectParams,
          body: TeamList,
          response: { 204: NoContent },
        },
      },
      async (request) => {
        const project = await projects.requireFor(request);
        await teams.replaceAll(project.name, request.body, request.caller.name);
      },
    );

    app.put(
      '/api/projects/:project_name/teams/:team_name',
      {
        config: { access: 'manager' },
        schema: {
          summary: 'Create a team or replace its members (managers)',
          params: TeamParams,
          body: TeamPut,
          response: { 204: NoContent },
        },
      },
      async (request) => {
        const project = await projects.requireFor(request);
        const { team_name } = request.params;
        await teams.save(project.name, team_name, request.body.members, request.caller.name);
      },
    );

    app.delete(
      '/api/projects/:project_name/teams/:team_name',
      {
        config: { access: 'manager' },
        schema: { summary: 'Delete a team (managers)', params: TeamParams, response: { 204: NoContent } },
      },
      async (request) => {
        const project = await projects.requireFor(request);
        const { team_name } = request.params;
        await teams.remove(project.name, team_name, request.caller.name);
      },
    );

    app.put(
      '/api/projects/:project_name/teams/:team_name/members/:member_name',
      {
        config: { access: 'manager' },
        schema: {
          summary: 'Add a member to a team or change one (managers)',
          params: MemberParams,
          body: MemberPut,
          response: { 204: NoContent },
        },
      },
      async (request) => {
        const project = await projects.requireFor(request);
        const { team_name, member_name } = request.params;
        await teams.saveMember(project.name, team_name, member_name, request.body, request.caller.name);
      },
    );

    app.delete(
      '/api/projects/:project_name/teams/:team_name/members/:member_name',
      {
        config: { access: 'manager' },
        schema: {
          summary: 'Remove a member from a team (managers)',
          params: MemberParams,
          response: { 204: NoContent },
        },
      },
      async (request) => {
        const project = await projects.requireFor(request);
        const { team_name, member_name } = request.params;
        await teams.removeMember(project.name, team_name, member_name, request.caller.name);
      },
    );
  };
}
