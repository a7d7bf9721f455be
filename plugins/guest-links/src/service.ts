import {
  BadRequest,
  Forbidden,
  isManagerOrAbove,
  isoTime,
  newId,
  NotFound,
  pathInScope,
  ValidationFailed,
  type Database,
  type EventBus,
  type RequestUser,
} from '@pipewright/sdk';
import type { AccessControl } from '@pipewright/plugin-access/api';
import type { ProjectDirectory } from '@pipewright/plugin-projects/api';
import { titleOf, versionsOf, type Entity, type HoldingDeps } from './holdings.js';
import { presentLink, REVOKED_TOPIC } from './links.js';
import type { LinkCreate } from './schemas.js';
import type { GuestConnections } from './connections.js';
import type { GuestLinkStore, LinkRow } from './store.js';
import { hashPassword, newToken, tokenHash } from './tokens.js';

export type ManageDeps = HoldingDeps & { projects: ProjectDirectory; access: AccessControl };

/** The guest page's path; the token rides in the fragment, which browsers never send to a server. */
export const guestUrl = (token: string) => `/guest#${token}`;

/**
 * Guest links as the studio manages them: made for a list of versions or one version by whoever may change it (a
 * manager, someone with update rights on the list, or on the version's folder), listed without their tokens,
 * revoked, and their log read.
 */
export class GuestLinkService {
  constructor(
    private readonly db: Database,
    private readonly store: GuestLinkStore,
    private readonly deps: ManageDeps,
    private readonly events: EventBus,
    private readonly connections: GuestConnections,
  ) {}

  async create(caller: RequestUser, projectName: string, input: LinkCreate) {
    const project = (await this.deps.projects.require(caller, projectName)).name;
    if (caller.isGuest) throw new Forbidden('Guests cannot share guest links');
    if (!input.listId === !input.versionId)
      throw new ValidationFailed(
        [{ loc: ['body', 'listId'], msg: 'Give either listId or versionId', type: 'value_error' }],
        'A guest link shows a list of versions (listId) or one version (versionId)',
      );
    const expiresAt = input.expiresAt ? new Date(input.expiresAt) : null;
    if (expiresAt && expiresAt.getTime() <= Date.now())
      throw new ValidationFailed(
        [{ loc: ['body', 'expiresAt'], msg: 'Must lie in the future', type: 'value_error' }],
        'A guest link cannot expire in the past',
      );
    let label: string;
    let versions: Entity[];
    if (input.listId) {
      const list = await this.deps.lists.get(caller, project, input.listId);
      if (list.entityType !== 'version')
        throw new BadRequest(`Guest links show versions; ${list.label} lists ${list.entityType}s`);
      if (list.accessLevel < 20) throw new Forbidden(`You may not share list ${list.label}`);
      label = list.label;
      versions = await versionsOf(this.deps, {
        target: 'list',
        target_id: list.id,
        project_name: project,
      } as LinkRow);
    } else {
      const version = await this.deps.entities.get(project, 'version', input.versionId!, caller);
      if (!version) throw new NotFound(`Version ${input.versionId} not found in project ${project}`);
      if (!(await this.mayUpdate(caller, project, version)))
        throw new Forbidden(`You may not share version ${version.id}`);
      label = (await titleOf(this.deps, project, version)).title;
      versions = [version];
    }
    // Approving changes the versions' status: only someone who may change them all can hand that on.
    if (input.canApprove)
      for (const version of versions)
        if (!(await this.mayUpdate(caller, project, version)))
          throw new Forbidden(`You may not change version ${version.id}, so guests may not approve it`);
    const token = newToken();
    const id = newId();
    await this.store.insertLink({
      id,
      token_hash: tokenHash(token),
      project_name: project,
      target: input.listId ? 'list' : 'version',
      target_id: (input.listId ?? input.versionId)!,
      label: input.label?.trim() || label,
      expires_at: expiresAt,
      password_hash: input.password ? await hashPassword(input.password) : null,
      can_comment: input.canComment,
      can_download: input.canDownload,
      can_approve: input.canApprove,
      created_by: caller.name,
    });
    return { id, token, url: guestUrl(token) };
  }

  /** The project's links the caller may manage, newest first (never their tokens). */
  async list(caller: RequestUser, projectName: string, filter: { listId?: string; versionId?: string }) {
    const project = (await this.deps.projects.require(caller, projectName)).name;
    const target = filter.listId
      ? { kind: 'list' as const, id: filter.listId }
      : filter.versionId
        ? { kind: 'version' as const, id: filter.versionId }
        : undefined;
    const links: LinkRow[] = [];
    for (const link of await this.store.links(project, target))
      if (await this.mayManage(caller, link)) links.push(link);
    return { links: links.map(presentLink) };
  }

  /**
   * Revoke a link: its sessions end with it, and every server process hears guest-link.revoked and closes the
   * connections it holds for it. Revoking a revoked link changes nothing.
   */
  async revoke(caller: RequestUser, projectName: string, id: string, address: string | null): Promise<void> {
    const link = await this.managed(caller, projectName, id);
    await this.db.transaction().execute(async () => {
      if (!(await this.store.revoke(link.id, caller.name))) return;
      await this.store.log({
        link_id: link.id,
        action: 'revoke',
        guest_name: null,
        address,
        detail: `by ${caller.name}`,
      });
      await this.events.emit({
        topic: REVOKED_TOPIC,
        project: link.project_name,
        user: caller.name,
        description: `Guest link ${link.label} revoked`,
        summary: { linkId: id },
      });
    });
    // This process's connections at once; the others' when they hear the event (this one hears it too: no harm).
    this.connections.closeLink(id, 'revoked');
  }

  async log(caller: RequestUser, projectName: string, id: string) {
    const link = await this.managed(caller, projectName, id);
    const rows = await this.store.logOf(link.id);
    return {
      entries: rows.map((row) => ({
        at: isoTime(row.at),
        action: row.action,
        guestName: row.guest_name,
        address: row.address,
        detail: row.detail,
      })),
    };
  }

  /** A link of the project the caller may manage: 404 when the project has none such, 403 when not theirs to manage. */
  private async managed(caller: RequestUser, projectName: string, id: string): Promise<LinkRow> {
    const project = (await this.deps.projects.require(caller, projectName)).name;
    const link = await this.store.link(id);
    if (!link || link.project_name !== project)
      throw new NotFound(`Guest link ${id} not found in project ${project}`);
    if (!(await this.mayManage(caller, link))) throw new Forbidden(`You may not manage guest link ${id}`);
    return link;
  }

  /** Managers, the link's maker, and whoever may change what it shows. */
  private async mayManage(caller: RequestUser, link: LinkRow): Promise<boolean> {
    if (isManagerOrAbove(caller) || link.created_by === caller.name) return true;
    if (caller.isGuest) return false;
    const targetId = link.target_id.replaceAll('-', '');
    if (link.target === 'list') {
      try {
        return (await this.deps.lists.get(caller, link.project_name, targetId)).accessLevel >= 20;
      } catch {
        return false;
      }
    }
    const version = await this.deps.entities.get(link.project_name, 'version', targetId, caller);
    return version !== null && (await this.mayUpdate(caller, link.project_name, version));
  }

  /** Managers always; others where their access groups let them update the version's folder. */
  private async mayUpdate(caller: RequestUser, project: string, version: Entity): Promise<boolean> {
    if (isManagerOrAbove(caller)) return true;
    if (caller.isGuest) return false;
    const scope = await this.deps.access.folderScope(caller, project, 'update');
    if (!scope) return true;
    const product = await this.deps.entities.get(project, 'product', version.productId);
    const folder = product ? await this.deps.entities.get(project, 'folder', product.folderId) : null;
    if (!folder) return false;
    if (pathInScope(scope, String(folder.path).replace(/^\/+/, ''))) return true;
    if (!scope.assigned) return false;
    const assigned = await this.deps.entities.query(project, 'task', {
      parentIds: [folder.id],
      assignees: [caller.name],
      limit: 1,
    });
    return assigned.items.length > 0;
  }
}
