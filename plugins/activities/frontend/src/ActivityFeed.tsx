import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { LiveEvent } from '@pipewright/sdk/client';
import type { ScreenProps, ScreenUser } from '@pipewright/sdk/screen';
import { ErrorBox, exposedScreen, useClient, useLoaded } from '@pipewright/sdk/ui';
import { ActivityItem, type ActivityActions } from './ActivityItem';
import { ENTITY_TYPES, type Activity, type EntityType } from './activity';
import { readFeed } from './activity-queries';
import {
  deleteActivity,
  editActivity,
  postComment,
  react,
  readSuggestions,
  readWatchers,
  setWatchers,
  SUGGESTS_FOR,
  type Suggestions,
} from './activity-routes';
import { CommentBox } from './CommentBox';
import { useHubListener, useLiveHub, useSettled, type LiveHub } from './live';
import { mentionsIn } from './mentions';
import { useOlderPages } from './older';
import { readFolderPaths, type FolderPaths } from './paths';
import { Watchers } from './Watchers';
import './activities.css';

/** What the feed takes besides the ScreenProps (other screens pass it through ScreenProps.Extension). */
export interface ActivityFeedProps {
  entityType: EntityType;
  entityId: string;
}

const PAGE = 30;

/**
 * The activity of one entity: its conversation and what happened to it, newest last, with the box to add a
 * comment. Embedded by other screens (the overview's detail panel) with <Extension module=
 * "activities_screens/ActivityFeed" props={{ entityType, entityId }} />.
 */
export default exposedScreen(function ActivityFeed(props: ScreenProps & ActivityFeedProps) {
  const { project, entityType, entityId } = props;
  if (!project) return <p className="muted">Choose a project to see its activity.</p>;
  if (!entityType || !entityId) return <p className="muted">Choose something to see its activity.</p>;
  // The type becomes part of a GraphQL query and of URLs: only the known ones pass.
  if (!ENTITY_TYPES.includes(entityType))
    return <p className="muted">A {String(entityType)} has no activity feed.</p>;
  return <ProjectFeeds key={project} {...props} project={project} />;
});

/** The feeds of one project: one live subscription, whichever entity's feed is shown. */
function ProjectFeeds(props: ScreenProps & ActivityFeedProps & { project: string }) {
  const { client, user, project, entityType, entityId } = props;
  const hub = useLiveHub(client, TOPICS, project);
  return (
    // A feed per entity: nothing of one entity's (a half-written comment, an open edit) follows to the next.
    <EntityFeed
      key={`${entityType}/${entityId}`}
      user={user}
      project={project}
      entityType={entityType}
      entityId={entityId}
      hub={hub}
    />
  );
}

const TOPICS = ['activity.'];

/** Live events of an activity that concern this entity: on it, mentioning it, or related to it. */
function concerns(event: LiveEvent, entityId: string, shown: Set<string>): boolean {
  const summary = event.summary as {
    activity_id?: string;
    references?: { entity_id?: string | null }[];
  };
  if (summary.activity_id && shown.has(summary.activity_id)) return true;
  return (summary.references ?? []).some((reference) => reference.entity_id === entityId);
}

function EntityFeed({
  user,
  project,
  entityType,
  entityId,
  hub,
}: {
  user: ScreenUser;
  project: string;
  entityType: EntityType;
  entityId: string;
  hub: LiveHub;
}) {
  const client = useClient();
  const { readingOlder, olderError, setOlderError, readOlder: readOlderPage } = useOlderPages();
  const [suggestions, setSuggestions] = useState<Suggestions | null>(null);
  const suggestionsAsked = useRef(false);
  // How many of the newest activities are on screen: a reload after a live event reads as many again.
  const shownCount = useRef(PAGE);
  const listEnd = useRef<HTMLLIElement>(null);
  const mention = useMemo(() => mentionsIn(project), [project]);
  // Activities of other entities (a folder's tasks and versions) name them by full path, read once per page.
  const [paths, setPaths] = useState<FolderPaths>(new Map());
  const knownPaths = useRef<FolderPaths>(paths);
  const readPaths = useCallback(
    (page: Activity[]) =>
      readFolderPaths(
        client,
        page.filter((activity) => activity.origin?.id !== entityId),
        knownPaths.current,
      ).then(
        (found) => found.size > knownPaths.current.size && setPaths((knownPaths.current = found)),
        () => undefined,
      ),
    [client, entityId],
  );

  const feed = useLoaded(async () => {
    const page = await readFeed(client, project, entityType, entityId, Math.max(PAGE, shownCount.current));
    void readPaths(page.activities);
    return page;
  }, [client, project, entityType, entityId]);
  const activities = feed.data?.activities ?? null;
  const older = feed.data?.older ?? null;
  const error = feed.error ?? olderError;
  const { reload: readAgain, set: setFeed } = feed;
  const reload = useCallback(() => {
    setOlderError(null);
    void readAgain();
  }, [readAgain, setOlderError]);

  // Who watches the entity; unknown (no one) when it cannot be read.
  const watching = useLoaded(
    () => readWatchers(client, project, entityType, entityId).catch((): string[] => []),
    [client, project, entityType, entityId],
  );
  const watchers = watching.data;
  const { reload: readWatchersAgain, set: setWatching } = watching;
  const reloadWatchers = useCallback(() => void readWatchersAgain(), [readWatchersAgain]);

  useEffect(() => {
    if (activities) shownCount.current = activities.length;
  }, [activities]);

  const soon = useSettled(reload);
  const watchersSoon = useSettled(reloadWatchers);
  const shownIds = useMemo(() => new Set((activities ?? []).map((a) => a.id)), [activities]);
  useHubListener(hub, {
    onEvent: (event) => {
      if (!concerns(event, entityId, shownIds)) return;
      if ((event.summary as { activity_type?: string }).activity_type === 'watch') watchersSoon();
      else soon();
    },
    // Whatever happened while the connection was down was missed.
    onReconnect: () => {
      reload();
      reloadWatchers();
    },
  });
  const live = hub.state;

  const readOlder = async () => {
    if (!older) return;
    await readOlderPage(async () => {
      const page = await readFeed(client, project, entityType, entityId, PAGE, older);
      setFeed((current) => {
        const shown = current?.activities ?? [];
        return {
          activities: [...page.activities.filter((a) => !shown.some((c) => c.id === a.id)), ...shown],
          older: page.older,
        };
      });
      void readPaths(page.activities);
    });
  };

  const wantSuggestions = () => {
    if (suggestionsAsked.current) return;
    suggestionsAsked.current = true;
    if (!SUGGESTS_FOR.includes(entityType))
      return setSuggestions({ users: [], tasks: [], versions: [], products: [], folders: [] });
    readSuggestions(client, project, entityType, entityId).then(setSuggestions, () => {
      // Without suggestions mentions can still be typed as links; the box says nothing matches.
      setSuggestions({ users: [], tasks: [], versions: [], products: [], folders: [] });
    });
  };

  const actions: ActivityActions = {
    edit: (activity, body) => editActivity(client, project, activity.id, body).then(soon),
    remove: async (activity) => {
      await deleteActivity(client, project, activity.id);
      setFeed(
        (current) =>
          current && { ...current, activities: current.activities.filter((a) => a.id !== activity.id) },
      );
    },
    react: (activity, reaction, add) => react(client, project, activity.id, reaction, add).then(soon),
  };

  const send = async (body: string, files: string[]) => {
    await postComment(client, project, entityType, entityId, body, files);
    reload();
    // Commenting makes one a watcher.
    reloadWatchers();
    requestAnimationFrame(() => listEnd.current?.scrollIntoView({ block: 'nearest' }));
  };

  return (
    <section className="pwa-feed" aria-label="Activity">
      <div className="pwa-feed-header">
        <Watchers
          watchers={watchers}
          me={user.name}
          onChange={async (list) => {
            await setWatchers(client, project, entityType, entityId, list);
            setWatching(() => list);
          }}
        />
        {live !== 'live' && live !== 'connecting' && (
          <span className="muted pwa-live-note" title="New activity shows after a reload of this panel">
            {live === 'reconnecting' ? 'Live updates paused: reconnecting…' : 'Live updates are off'}
          </span>
        )}
      </div>
      <ErrorBox error={error && `The activity could not be read: ${error}`} />
      {older && (
        <button type="button" className="pw-link" disabled={readingOlder} onClick={() => void readOlder()}>
          {readingOlder ? 'Reading older activity…' : 'Show older activity'}
        </button>
      )}
      {!activities && !error && <p className="muted">Reading the activity…</p>}
      {activities && activities.length === 0 && (
        <p className="muted pwa-empty">
          No comments yet. Write the first one below; type @ to let someone know.
        </p>
      )}
      {activities && activities.length > 0 && (
        <ol className="pwa-list" aria-label="Activities">
          {activities.map((activity) => (
            <ActivityItem
              key={activity.id}
              activity={activity}
              entityId={entityId}
              paths={paths}
              user={user}
              project={project}
              mention={mention}
              actions={actions}
              suggestions={suggestions}
              onWantSuggestions={wantSuggestions}
            />
          ))}
          <li ref={listEnd} className="pwa-list-end" aria-hidden="true" />
        </ol>
      )}
      <CommentBox
        project={project}
        suggestions={suggestions}
        onWantSuggestions={wantSuggestions}
        onSend={send}
      />
    </section>
  );
}
