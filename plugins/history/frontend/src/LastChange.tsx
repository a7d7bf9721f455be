import type { ScreenProps } from '@pipewright/sdk/screen';
import { callRoute, exposedScreen, useClient, useLoaded, When } from '@pipewright/sdk/ui';
import { clientName, describeChange, type Change } from './describe';
import './history.css';

/** What the hint takes besides the ScreenProps: the cell's entity and field (status, attrib.fps, ...). */
export interface LastChangeProps {
  entityType: string;
  entityId: string;
  field: string;
}

/**
 * The last change of one field of one entity, in a line: who, when, from what, and from which client. Shown by a
 * grid over the cell under the pointer, with <Extension module="history_screens/LastChange" props={...} />;
 * nothing while it reads, and a note when the field was never changed.
 */
export default exposedScreen(function LastChange(props: ScreenProps & LastChangeProps) {
  const { project, entityType, entityId, field } = props;
  const client = useClient();
  const read = useLoaded(
    () =>
      callRoute<{ changes: Change[] }>(client, `/api/projects/${project}/history/latest`, {
        method: 'POST',
        body: { entityType, entityIds: [entityId], fields: [field] },
      }),
    [client, project, entityType, entityId, field],
    { enabled: Boolean(project), reset: true },
  );
  if (!read.data) return null;
  const change = read.data.changes[0];
  return (
    <div className="pwh-last" role="tooltip">
      {change ? (
        <>
          <strong>{change.user ?? 'someone'}</strong> {describeChange(change)}
          <div className="muted">
            <When at={change.changedAt} /> · {clientName(change)}
          </div>
        </>
      ) : (
        <span className="muted">No change recorded here: the value is as it was created or inherited.</span>
      )}
    </div>
  );
});
