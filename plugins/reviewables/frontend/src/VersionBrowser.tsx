import { useState } from 'react';
import { ErrorBox, useClient, useLoaded } from '@pipewright/sdk/ui';
import {
  foldersUnder,
  productsIn,
  versionLabel,
  versionsOf,
  type FolderItem,
  type ProductItem,
  type VersionItem,
  type VersionPlace,
} from './browse';

// Choosing what to review, in three short columns: walk down the folders (only those with versions below them are
// listed), pick a product of the folder, then one of its versions (HERO first, then newest first).

export function VersionBrowser({
  project,
  start,
  current,
  onChoose,
}: {
  project: string;
  /** Where to open: the version on screen, so "another version" starts next to it. */
  start: VersionPlace | null;
  /** The version on screen, marked in the list. */
  current: string | null;
  onChoose(place: VersionPlace): void;
}) {
  const [trail, setTrail] = useState<FolderItem[]>(start?.folders ?? []);
  const [product, setProduct] = useState<ProductItem | null>(start?.product ?? null);
  const folder = trail.at(-1) ?? null;

  const enter = (next: FolderItem[]) => {
    setTrail(next);
    setProduct(null);
  };

  return (
    <section className="pw-panel pwr-browser" aria-label="Choose a version">
      <div className="pwr-columns">
        <FolderColumn
          project={project}
          trail={trail}
          onEnter={(child) => enter([...trail, child])}
          onBack={(depth) => enter(trail.slice(0, depth))}
        />
        <ProductColumn project={project} folder={folder} chosen={product} onChoose={setProduct} />
        <VersionColumn
          project={project}
          product={product}
          current={current}
          onChoose={(version) => product && onChoose({ version, product, folders: trail })}
        />
      </div>
    </section>
  );
}

function FolderColumn({
  project,
  trail,
  onEnter,
  onBack,
}: {
  project: string;
  trail: FolderItem[];
  onEnter(folder: FolderItem): void;
  /** Go back up to this many folders deep (0: the project). */
  onBack(depth: number): void;
}) {
  const client = useClient();
  const parent = trail.at(-1) ?? null;
  const level = useLoaded(
    () => foldersUnder(client, project, parent?.id ?? null),
    [client, project, parent?.id],
  );
  return (
    <div className="pwr-column" role="group" aria-label="Folders">
      <nav className="pwr-trail" aria-label="Folder path">
        <button type="button" className="pw-link" onClick={() => onBack(0)} disabled={!parent}>
          {project}
        </button>
        {trail.map((folder, i) => (
          <span key={folder.id}>
            {' / '}
            <button
              type="button"
              className="pw-link"
              onClick={() => onBack(i + 1)}
              disabled={i === trail.length - 1}
            >
              {folder.label || folder.name}
            </button>
          </span>
        ))}
      </nav>
      <ErrorBox error={level.error} prefix="The folders could not be read:" />
      {level.data && level.data.folders.length === 0 && (
        <p className="muted pw-small">
          {parent
            ? `No folders below ${parent.label || parent.name} have versions.`
            : 'No folder of this project has versions yet. Versions come from publishing; the overview can create them too.'}
        </p>
      )}
      <ul className="pwr-choices">
        {level.data?.folders.map((folder) => (
          <li key={folder.id}>
            <button type="button" className="pwr-choice" onClick={() => onEnter(folder)}>
              <span>{folder.label || folder.name}</span>
              <span className="muted pw-small">{folder.folderType} ›</span>
            </button>
          </li>
        ))}
      </ul>
      {level.data?.cut && (
        <p className="muted pw-small">Only the first {level.data.folders.length} are listed.</p>
      )}
      {level.loading && !level.data && <p className="muted pw-small">Loading folders…</p>}
    </div>
  );
}

function ProductColumn({
  project,
  folder,
  chosen,
  onChoose,
}: {
  project: string;
  folder: FolderItem | null;
  chosen: ProductItem | null;
  onChoose(product: ProductItem): void;
}) {
  const client = useClient();
  const products = useLoaded(
    () => (folder ? productsIn(client, project, folder.id) : Promise.resolve([])),
    [client, project, folder?.id],
  );
  const name = folder ? folder.label || folder.name : null;
  return (
    <div className="pwr-column" role="group" aria-label="Products">
      <h3 className="pwr-column-title">{name ? `Products in ${name}` : 'Products'}</h3>
      <ErrorBox error={products.error} prefix="The products could not be read:" />
      {!folder && <p className="muted pw-small">Open a folder to see its products.</p>}
      {folder && products.data?.length === 0 && !products.loading && (
        <p className="muted pw-small">{name} has no products of its own; open one of its folders.</p>
      )}
      <ul className="pwr-choices">
        {folder &&
          products.data?.map((product) => (
            <li key={product.id}>
              <button
                type="button"
                className="pwr-choice"
                aria-pressed={product.id === chosen?.id}
                onClick={() => onChoose(product)}
              >
                <span>{product.name}</span>
                <span className="muted pw-small">{product.productType}</span>
              </button>
            </li>
          ))}
      </ul>
    </div>
  );
}

function VersionColumn({
  project,
  product,
  current,
  onChoose,
}: {
  project: string;
  product: ProductItem | null;
  current: string | null;
  onChoose(version: VersionItem): void;
}) {
  const client = useClient();
  const versions = useLoaded(
    () => (product ? versionsOf(client, project, product.id) : Promise.resolve([])),
    [client, project, product?.id],
  );
  return (
    <div className="pwr-column" role="group" aria-label="Versions">
      <h3 className="pwr-column-title">{product ? `Versions of ${product.name}` : 'Versions'}</h3>
      <ErrorBox error={versions.error} prefix="The versions could not be read:" />
      {!product && <p className="muted pw-small">Choose a product to see its versions.</p>}
      {product && versions.data?.length === 0 && !versions.loading && (
        <p className="muted pw-small">{product.name} has no versions yet.</p>
      )}
      <ul className="pwr-choices">
        {product &&
          versions.data?.map((version) => (
            <li key={version.id}>
              <button
                type="button"
                className="pwr-choice"
                aria-pressed={version.id === current}
                aria-label={`Review ${product.name} ${versionLabel(version)}`}
                onClick={() => onChoose(version)}
              >
                <span className="pw-inline">
                  {version.version < 0 ? (
                    <span className="pw-badge pw-badge-info" title="The version the pipeline uses">
                      HERO
                    </span>
                  ) : (
                    <span className="pw-strong">{versionLabel(version)}</span>
                  )}
                  <span className="muted pw-small">{version.status}</span>
                </span>
                <span className="muted pw-small">
                  {version.author ? `${version.author}, ` : ''}
                  {new Date(version.createdAt).toLocaleDateString()}
                </span>
              </button>
            </li>
          ))}
      </ul>
    </div>
  );
}
