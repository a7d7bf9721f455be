import { useState } from 'react';
import { useClient } from '@pipewright/sdk/ui';
import type { ScreenProps } from '@pipewright/sdk/screen';
import { refusalFor, useProjectAccess } from './access';
import type { Person } from './Assignees';
import { ColumnChooser } from './ColumnChooser';
import type { Column } from './grid/columns';
import type { Entity } from './model';
import { PublishDialog, type PublishStart } from './publish/PublishDialog';
import { ToolButton } from './ToolButton';
import type { OverviewView } from './views';
import { ViewsMenu } from './ViewsMenu';
import './views.css';

// The toolbar's part for publishing and views: New product and New version on the chosen folder or task, the
// saved views and the column chooser. Kept out of the overview itself, which hands over what it knows.

export function OverviewTools({
  project,
  Extension,
  chosen,
  folderOf,
  people,
  columns,
  view,
  onView,
  onPublished,
  onNotice,
}: {
  project: string;
  Extension: ScreenProps['Extension'];
  /** The folder or task last clicked. */
  chosen: Entity | null;
  folderOf(task: Entity): Entity | null;
  people: Person[];
  /** Every column the grid can show, before the view arranges them. */
  columns: Column[];
  view: OverviewView;
  onView(view: OverviewView): void;
  onPublished(): void;
  onNotice(notice: { kind: 'error' | 'info'; text: string }): void;
}) {
  const client = useClient();
  const [publishing, setPublishing] = useState<PublishStart | null>(null);
  const folder = chosen ? (chosen.kind === 'folder' ? chosen : folderOf(chosen)) : null;
  const access = useProjectAccess(client, project);
  const why = folder
    ? refusalFor(access, 'publish', 'publishing', [folder])
    : 'Select the folder or task it belongs to first';
  return (
    <>
      <ToolButton why={why} onClick={() => setPublishing('product')}>
        New product
      </ToolButton>
      <ToolButton why={why} onClick={() => setPublishing('version')}>
        New version
      </ToolButton>
      <ViewsMenu
        project={project}
        current={view}
        onRestore={onView}
        onNotice={(text) => onNotice({ kind: 'info', text })}
      />
      <ColumnChooser
        columns={columns}
        layout={view.columns}
        onChange={(layout) => onView({ ...view, columns: layout })}
      />
      {publishing && folder && (
        <PublishDialog
          start={publishing}
          folder={folder}
          task={chosen?.kind === 'task' ? chosen : null}
          project={project}
          people={people}
          Extension={Extension}
          onChanged={onPublished}
          onClose={() => setPublishing(null)}
        />
      )}
    </>
  );
}
