import { useCallback, useEffect, useState } from 'react';
import type { ScreenProps } from '@pipewright/sdk/screen';
import type { Api } from './api';
import { ConnectionBadge } from './ConnectionBadge';
import { EventDetailPanel } from './EventDetailPanel';
import { EventFilters } from './EventFilters';
import { useEventLog } from './event-log';
import { NO_FILTER, type EventFilter } from './events';
import { EventTable } from './EventTable';
import { useSession } from './session';
import './events.css';

/** The event opened in the detail panel is kept in ?event=, so a link or a reload opens it again. */
function useSelectedEvent(): [string | null, (id: string | null) => void] {
  const [selected, setSelected] = useState(() => new URLSearchParams(location.search).get('event'));
  const select = useCallback((id: string | null) => {
    const url = new URL(location.href);
    if (id) url.searchParams.set('event', id);
    else url.searchParams.delete('event');
    history.replaceState(history.state, '', url);
    setSelected(id);
  }, []);
  return [selected, select];
}

function useProjectNames(api: Api): string[] {
  const [names, setNames] = useState<string[]>([]);
  useEffect(() => {
    api
      .get<{ projects: { name: string }[] }>('/api/projects')
      .then((answer) => setNames(answer.projects.map((p) => p.name)))
      // Without the projects addon the project filter is free text.
      .catch(() => setNames([]));
  }, [api]);
  return names;
}

/** The studio's event log: live over /ws, filtered, paged back in time, with one event's details beside it. */
export default function EventsScreen(props: Partial<ScreenProps>) {
  const { api, user, error: sessionError } = useSession(props);
  const [filter, setFilter] = useState<EventFilter>(NO_FILTER);
  const [selected, select] = useSelectedEvent();
  const log = useEventLog(api, filter, user);
  const projects = useProjectNames(api);
  const seesAll = user ? user.isAdmin || user.isManager : true;

  return (
    <section className="ev-screen">
      <header className="ev-header">
        <h1>Events</h1>
        <ConnectionBadge connection={log.connection} />
      </header>
      <p className="muted ev-intro">
        What happens in the studio, newest first: entity changes, addon installs, jobs of services and their
        progress.
        {!seesAll && ' You see your own events; managers see everyone’s.'}
      </p>
      <EventFilters value={filter} projects={projects} onChange={setFilter} />
      {sessionError && <p className="error-box">{sessionError}</p>}
      {log.error && (
        <p className="error-box" role="alert">
          The events could not be read: {log.error}
        </p>
      )}
      <div className={selected ? 'ev-body ev-body-split' : 'ev-body'}>
        <div className="ev-list">
          {log.rows.length > 0 && (
            <EventTable rows={log.rows} arrived={log.arrived} selected={selected} onSelect={select} />
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
            api={api}
            id={selected}
            row={log.rows.find((row) => row.id === selected)}
            onOpen={select}
            onClose={() => select(null)}
          />
        )}
      </div>
    </section>
  );
}
