import { useState } from 'react';
import type { ScreenProps } from '@pipewright/sdk/screen';
import {
  ErrorBox,
  exposedScreen,
  NoProjectChosen,
  Saved,
  useLiveEvents,
  useLoaded,
  useSearchParam,
} from '@pipewright/sdk/ui';
import { readLists } from './api';
import { ListDetailView } from './ListDetail';
import { ListIndex } from './ListIndex';
import './lists.css';

// The project's entity lists: playlists and review sessions of versions, tasks or folders. The index at the left
// groups them by what they hold and creates new ones; the list chosen (kept in ?list=, so a link or a reload opens
// it again) shows its items, which can be added, reordered and removed, and a list of versions opens in review.

export default exposedScreen(function Lists(props: ScreenProps) {
  if (!props.project) return <NoProjectChosen title="Lists" purpose="see its lists" />;
  return <ProjectLists {...props} project={props.project} />;
});

function ProjectLists({ client, project }: ScreenProps & { project: string }) {
  const lists = useLoaded(() => readLists(client, project), [client, project]);
  const [chosen, choose] = useSearchParam('list');
  // Lists change under the screen too (another user, the overview's Add to list): their events read them again.
  const [changes, setChanges] = useState(0);
  const [notice, setNotice] = useState<string | null>(null);
  const readAgain = () => {
    lists.reload();
    setChanges((n) => n + 1);
  };
  useLiveEvents({
    client,
    topics: ['entity_list.'],
    project,
    onEvent: (event) => {
      // The list on screen deleted elsewhere closes with a word, rather than failing at the next change.
      if (event.topic === 'entity_list.deleted' && event.summary.id === chosen) {
        choose(null);
        setNotice(`${String(event.summary.label)} was deleted${event.user ? ` by ${event.user}` : ''}.`);
      }
      readAgain();
    },
    // Changes made while the connection was down were not heard.
    onReconnect: readAgain,
  });
  return (
    <section className="pw-screen pwl-screen">
      <header className="pw-header">
        <h1>Lists</h1>
        <span className="muted">{project}</span>
      </header>
      <ErrorBox error={lists.error && `The lists could not be read: ${lists.error}`} />
      <Saved message={notice} />
      <div className="pwl-body">
        <ListIndex
          project={project}
          lists={lists.data}
          chosen={chosen}
          onChoose={choose}
          onCreated={(id) => {
            lists.reload();
            choose(id);
          }}
        />
        {chosen ? (
          <ListDetailView
            key={chosen}
            project={project}
            id={chosen}
            changes={changes}
            onChanged={lists.reload}
            onDeleted={() => {
              choose(null);
              lists.reload();
            }}
          />
        ) : (
          <p className="muted pwl-hint">
            Choose a list, or create one. Tasks and versions are added from the overview too: select rows
            there and use Add to list.
          </p>
        )}
      </div>
    </section>
  );
}
