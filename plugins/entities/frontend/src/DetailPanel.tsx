import type { PipewrightClient } from '@pipewright/sdk/client';
import type { ScreenProps } from '@pipewright/sdk/screen';
import { useState } from 'react';
import { ErrorBox, Tabs, useClient, useLoaded, type TabSpec } from '@pipewright/sdk/ui';
import { formatValue, statusOf, type AttributeDef, type Entity, type ProjectMeta } from './model';
import { AssigneeChips, type Person } from './Assignees';
import { EntityThumbnail, Thumbnail } from './Thumbnail';

interface Representation {
  id: string;
  name: string;
  fileCount: number;
}

interface Version {
  id: string;
  version: number;
  author: string | null;
  status: string;
  createdAt: string;
  thumbnailId: string | null;
  product: { name: string; productType: string };
  representations: Representation[];
}

const VERSION_FIELDS = `id version author status createdAt thumbnailId
  representations(first: 100) { edges { node { id name fileCount } } }
  product { name productType }`;
// Versions are read a page at a time: a page of 100, each with up to 100 representations, keeps one query well
// within the server's GraphQL cost limit (GRAPHQL_MAX_COST) however much a folder or task holds.
const VERSION_PAGE = 100;

type Edges<N> = { edges: { node: N }[] };
type VersionNode = Omit<Version, 'representations'> & { representations: Edges<Representation> };

/** The versions published in a folder (through its products) or from a task, newest first. */
async function versionsOf(
  client: PipewrightClient,
  project: string,
  entity: Pick<Entity, 'kind' | 'id'>,
): Promise<Version[]> {
  let pages: AsyncIterable<VersionNode>;
  if (entity.kind === 'folder') {
    const data = await client.graphql<{ project: { folder: { products: Edges<{ id: string }> } | null } }>(
      `query FolderProducts($project: String!, $id: String!) { project(name: $project) { folder(id: $id) {
        products(first: 500) { edges { node { id } } } } } }`,
      { project, id: entity.id },
    );
    const products = (data.project.folder?.products.edges ?? []).map((e) => e.node.id);
    if (products.length === 0) return [];
    pages = client.paginate<VersionNode>(
      `query FolderVersions($project: String!, $products: [String!], $after: String) { project(name: $project) {
        versions(productIds: $products, first: ${VERSION_PAGE}, after: $after) {
          edges { node { ${VERSION_FIELDS} } } pageInfo { hasNextPage endCursor } } } }`,
      { project, products },
      ['project', 'versions'],
    );
  } else {
    pages = client.paginate<VersionNode>(
      `query TaskVersions($project: String!, $id: String!, $after: String) { project(name: $project) { task(id: $id) {
        versions(first: ${VERSION_PAGE}, after: $after) {
          edges { node { ${VERSION_FIELDS} } } pageInfo { hasNextPage endCursor } } } } }`,
      { project, id: entity.id },
      ['project', 'task', 'versions'],
    );
  }
  const versions: Version[] = [];
  for await (const node of pages)
    versions.push({ ...node, representations: node.representations.edges.map((e) => e.node) });
  return versions.sort((a, b) => b.createdAt.localeCompare(a.createdAt));
}

// Below the values: the conversation (activities addon) or the field-by-field history (history addon).
type Below = 'activity' | 'history';
const BELOW: TabSpec<Below>[] = [
  { id: 'activity', label: 'Activity' },
  { id: 'history', label: 'History' },
];

const versionName = (n: number) => (n < 0 ? 'hero' : `v${String(n).padStart(3, '0')}`);

/**
 * Everything about one folder or task: its values (own and inherited), what was published from it, and its
 * activity (comments and history), which the activities addon provides when it is installed.
 */
export function DetailPanel({
  Extension,
  entity,
  meta,
  attributes,
  project,
  refreshed,
  onClose,
  people,
  onAssign,
}: {
  people: Person[];
  onAssign(name: string, assign: boolean): void;
  Extension: ScreenProps['Extension'];
  entity: Entity;
  /** Moves when the user asks for fresh data (Refresh): the versions are read again too. */
  refreshed: number;
  meta: ProjectMeta;
  attributes: AttributeDef[];
  project: string;
  onClose(): void;
}) {
  const client = useClient();
  const [below, setBelow] = useState<Below>('activity');
  const { kind, id } = entity;
  // Read again for another entity, not for every change of the same one's values; another entity's versions never
  // stand in while its own are read.
  const read = useLoaded(
    () => versionsOf(client, project, { kind, id }),
    [client, project, kind, id, refreshed],
    {
      reset: true,
    },
  );
  const versions = read.data;
  const error = read.error;

  const status = statusOf(meta, entity.status);
  const shown = attributes.filter((a) => a.scope.includes(entity.kind));
  const byProduct = new Map<string, Version[]>();
  for (const version of versions ?? []) {
    const key = `${version.product.name}`;
    byProduct.set(key, [...(byProduct.get(key) ?? []), version]);
  }

  return (
    <aside className="pwo-detail" aria-label={`Details of ${entity.name}`}>
      <header className="pwo-detail-header">
        {entity.thumbnailId && <EntityThumbnail project={project} entity={entity} size="large" />}
        <div>
          <h2>{entity.label || entity.name}</h2>
          <div className="muted">
            {entity.kind} · {entity.type}
          </div>
          <div className="pwo-status" style={{ color: status?.color }}>
            <span className="pwo-dot" style={{ background: status?.color ?? 'var(--muted)' }} />
            {entity.status}
          </div>
        </div>
        <button type="button" className="pwo-close" aria-label="Close the details" onClick={onClose}>
          ✕
        </button>
      </header>
      <div className="pwo-detail-path" title="Path">
        {entity.path}
      </div>
      {entity.tags.length > 0 && (
        <div className="pwo-tags">
          {entity.tags.map((tag) => (
            <span key={tag} className="pw-badge pwo-tag">
              {tag}
            </span>
          ))}
        </div>
      )}
      {entity.kind === 'task' && (
        <>
          <h3 className="pw-subheading">Assignees</h3>
          <AssigneeChips task={entity} people={people} onToggle={onAssign} />
        </>
      )}

      <h3 className="pw-subheading">Attributes</h3>
      <dl className="pwo-attributes">
        {shown.map((a) => {
          const own = entity.ownAttrib.includes(a.name);
          const value = entity.attrib[a.name];
          const option = a.data.enum?.find((o) => o.value === value);
          return (
            <div key={a.name} className={own ? undefined : 'pwo-inherited'}>
              <dt>{a.data.title || a.name}</dt>
              <dd>
                {option ? option.label : formatValue(value) || '—'}
                {!own && value !== undefined && <span className="pwo-inherited-tag"> inherited</span>}
              </dd>
            </div>
          );
        })}
      </dl>

      <h3 className="pw-subheading">Versions</h3>
      <ErrorBox error={error && `The versions could not be read: ${error}`} />
      {!versions && !error && <p className="muted">Reading versions…</p>}
      {versions && versions.length === 0 && (
        <p className="muted">
          Nothing published {entity.kind === 'folder' ? 'in this folder' : 'from this task'} yet. Versions
          appear here once a publish from a DCC or the publisher reaches the server.
        </p>
      )}
      {[...byProduct.entries()].map(([product, list]) => (
        <section key={product} className="pwo-product" aria-label={`Product ${product}`}>
          <h4>
            {product} <span className="muted">{list[0]!.product.productType}</span>
          </h4>
          <ul className="pwo-versions">
            {list.map((version) => (
              <li key={version.id} className="pwo-version">
                {version.thumbnailId && (
                  <Thumbnail
                    project={project}
                    kind="version"
                    id={version.id}
                    thumbnailId={version.thumbnailId}
                  />
                )}
                <div>
                  <strong>{versionName(version.version)}</strong>{' '}
                  <span className="muted">
                    {version.author ?? 'unknown author'} · {version.status} ·{' '}
                    {new Date(version.createdAt).toLocaleDateString()}
                  </span>
                  <div className="pwo-representations">
                    {version.representations.length === 0 ? (
                      <span
                        className="muted"
                        title="Representations are the published files a pipeline loads (from a DCC or the publisher). Videos and images uploaded for review are reviewables: they play in Review."
                      >
                        no representations (published files) · uploads for review play in Review
                      </span>
                    ) : (
                      version.representations.map((r) => (
                        <span key={r.id} className="pw-badge pwo-tag" title={`${r.fileCount} file(s)`}>
                          {r.name} · {r.fileCount}
                        </span>
                      ))
                    )}
                  </div>
                </div>
              </li>
            ))}
          </ul>
        </section>
      ))}

      <Tabs<Below>
        tabs={BELOW}
        current={below}
        onChange={setBelow}
        label={`Activity and history of ${entity.name}`}
      />
      {below === 'activity' ? (
        <Extension
          module="activities_screens/ActivityFeed"
          props={{ entityType: entity.kind, entityId: entity.id }}
          fallback={
            <p className="muted">
              Comments and what happened to this {entity.kind} show here when the activities addon is
              installed.
            </p>
          }
        />
      ) : (
        <Extension
          module="history_screens/EntityHistory"
          props={{ entityType: entity.kind, entityId: entity.id }}
          fallback={
            <p className="muted">
              Who changed which field of this {entity.kind}, and when, shows here when the history addon is
              installed.
            </p>
          }
        />
      )}
    </aside>
  );
}
