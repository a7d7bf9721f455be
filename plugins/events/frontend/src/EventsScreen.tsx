import { useState } from 'react';
import type { PipewrightClient } from '@pipewright/sdk/client';
import type { ScreenProps } from '@pipewright/sdk/screen';
import { ErrorBox, exposedScreen, useLoaded, useSearchParam } from '@pipewright/sdk/ui';
import { ConnectionBadge } from './ConnectionBadge';
import { EventDetailPanel } from './EventDetailPanel';
import { EventFilters } from './EventFilters';
import { useEventLog } from './event-log';
import { NO_FILTER, type EventFilter } from './events';
import { EventTable } from './EventTable';
import { useEntityPaths } from './use-entity-paths';
import './events.css';

const NO_NAMES: string[] = [];

function useProjectNames(client: PipewrightClient): string[] {
  const names = useLoaded(
    () =>
      client
        .GET('/api/projects')
        .then((answer) => answer.projects.map((p) => p.name))
        // Without the projects addon the project filter is free text.
        .catch(() => NO_NAMES),
    [client],
  );
  return names.data ?? NO_NAMES;
}

/** The studio's event log: live over /ws, filtered, paged back in time, with one event's details beside it. */
export default exposedScreen(function EventsScreen({ client, user }: ScreenProps) {
  const [filter, setFilter] = useState<EventFilter>(NO_FILTER);
  // The event opened in the detail panel is kept in ?event=, so a link or a reload opens it again.
  const [selected, select] = useSearchParam('event');
  const log = useEventLog(client, filter, user);
  const projects = useProjectNames(client);
  const paths = useEntityPaths(client, log.rows);
  const seesAll = user.isAdmin || user.isManager;

  return (
    <section className="pw-screen">
      <header className="pw-header">
        <h1>Events</h1>
        <ConnectionBadge connection={log.connection} />
      </header>
      <p className="muted ev-intro">
        What happens in the studio, newest first: entity changes, addon installs, jobs of services and their
        progress.
        {!seesAll && ' You see your own events; managers see everyone’s.'}
      </p>
      <EventFilters value={filter} projects={projects} onChange={setFilter} />
      <ErrorBox error={log.error && `The events could not be read: ${log.error}`} />
      <div className={selected ? 'ev-body ev-body-split' : 'ev-body'}>
        <div className="ev-list">
          {log.rows.length > 0 && (
            <EventTable
              rows={log.rows}
              paths={paths}
              arrived={log.arrived}
              selected={selected}
              onSelect={select}
            />
          )}
          {!log.loading && !log.error && log.rows.length === 0 && (
            <p className="notice ev-empty">
              {!filter.topic && !filter.status && !filter.project
                ? 'No events yet. They appear here as soon as something happens: create a project, change a folder, install an addon.'
                : 'No events match these filters. Loosen them, or wait: matching events appear here as they happen.'}
            </p>
          )}
          <div className="ev-more">
            {log.loading ? (
              <span className="muted">Loading events…</span>
            ) : log.hasOlder ? (
              <button type="button" onClick={log.loadOlder}>
                Load older events
              </button>
            ) : (
              log.rows.length > 0 && <span className="muted">That is the oldest event.</span>
            )}
          </div>
        </div>
        {selected && (
          <EventDetailPanel
            key={selected}
            id={selected}
            row={log.rows.find((row) => row.id === selected)}
            onOpen={select}
            onClose={() => select(null)}
          />
        )}
      </div>
    </section>
  );
});
