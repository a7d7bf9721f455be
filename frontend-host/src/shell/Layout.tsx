import { useEffect, useMemo, useState } from 'react';
import type { PipewrightClient } from '@pipewright/sdk/client';
import type { ScreenUser } from '@pipewright/sdk/screen';
import { useClient, useLoaded } from '@pipewright/sdk/ui';
import type { User } from '../api';
import { addonPages, Extension, pageAt, RemotePage, type AddonPage, type NavGroup } from '../remotes';
import { ChooseProject } from './ChooseProject';
import { Home } from './Home';
import { ProjectSwitcher, useCurrentProject } from './ProjectSwitcher';
import { navigate, usePath } from './router';
import { useTheme } from './theme';
import { UserMenu } from './UserMenu';

function screenUser(user: User): ScreenUser {
  return { name: user.name, isAdmin: user.data?.isAdmin === true, isManager: user.data?.isManager === true };
}

/** The frame around every screen: top bar, navigation built from the addons' remotes, and the page. */
export function Layout({ user, onLogout }: { user: User; onLogout(): void }) {
  const client = useClient();
  const [theme, toggleTheme] = useTheme();
  const [project, setProject] = useCurrentProject();
  const path = usePath();
  const who = useMemo(() => screenUser(user), [user]);
  useProjectFromAddress(project, setProject);
  const addons = useLoaded(() => addonPages(client, who), [client, who]);
  const pages: AddonPage[] | null = addons.data;
  const pagesError = addons.error;

  const page = pages ? pageAt(pages, path) : undefined;
  const inbox = pages?.find((p) => p.addonName === 'activities' && p.id.endsWith('/Inbox'));
  const unread = useUnreadCount(client, !!inbox, path);

  return (
    <div className="layout">
      <header className="topbar">
        <a
          className="brand"
          href="/"
          onClick={(e) => {
            e.preventDefault();
            navigate('/');
          }}
        >
          Pipewright
        </a>
        <ProjectSwitcher current={project} onChange={setProject} />
        <span className="spacer" />
        <button
          type="button"
          onClick={toggleTheme}
          aria-label="Switch theme"
          title="Switch between dark and light"
        >
          {theme === 'dark' ? 'Light theme' : 'Dark theme'}
        </button>
        <UserMenu user={user} onLogout={onLogout} />
      </header>
      <nav className="sidebar" aria-label="Main">
        <NavLink to="/" label="Home" active={path === '/'} />
        <NavGroupLinks
          pages={pages}
          group="main"
          current={page}
          badges={inbox ? { [inbox.path]: unread } : {}}
        />
        <NavGroupLinks pages={pages} group="project" current={page} heading={project ?? 'Project'} />
        <NavGroupLinks pages={pages} group="settings" current={page} heading="Settings" />
        {pagesError && <p className="error-box">Addon screens unavailable: {pagesError}</p>}
      </nav>
      <main className="content">
        {path === '/' ? (
          <>
            <Home user={user} project={project} pages={pages ?? []} />
            {pages && pages.length === 0 && (
              <p className="muted">
                No addon provides screens yet. Installed addons with a web interface appear in the navigation.
              </p>
            )}
          </>
        ) : page ? (
          page.group === 'project' && !project ? (
            <ChooseProject screen={page.label} onChoose={setProject} pages={pages ?? []} />
          ) : (
            <RemotePage
              page={page}
              screen={{ project, user: who, client, token: client.token ?? '', Extension }}
            />
          )
        ) : pages ? (
          <p className="muted">There is no page at {path}. Pick one in the navigation.</p>
        ) : pagesError ? null : (
          <p className="muted">Loading…</p>
        )}
      </main>
    </div>
  );
}

/**
 * A link may carry the project it is about (?project=, e.g. the inbox opening a message of another project): the
 * shell switches to it and takes it out of the address, so the switcher stays the one place that says which
 * project is open.
 */
function useProjectFromAddress(current: string | null, choose: (name: string) => void) {
  const [search, setSearch] = useState(() => location.search);
  useEffect(() => {
    // The router announces every change of address as popstate.
    const update = () => setSearch(location.search);
    window.addEventListener('popstate', update);
    return () => window.removeEventListener('popstate', update);
  }, []);
  const wanted = new URLSearchParams(search).get('project');
  // Switched while rendering rather than in an effect, so no screen renders the new address with the old project.
  if (wanted && wanted !== current) choose(wanted);
  useEffect(() => {
    if (!wanted) return;
    const url = new URL(location.href);
    url.searchParams.delete('project');
    history.replaceState(history.state, '', url);
    setSearch(url.search);
  }, [wanted]);
}

/** One group of the navigation; the project and settings groups carry a heading. */
function NavGroupLinks({
  pages,
  group,
  current,
  heading,
  badges = {},
}: {
  pages: AddonPage[] | null;
  group: NavGroup;
  current: AddonPage | undefined;
  heading?: string;
  /** A count shown beside a page's link (the inbox's unread messages), by page path. */
  badges?: Record<string, number | null>;
}) {
  const members = pages?.filter((p) => p.group === group) ?? [];
  if (members.length === 0) return null;
  return (
    // Headings rather than labelled groups: "Project" as a label would be one more element that answers to the
    // project switcher's name.
    <div className="nav-group">
      {heading && <h2 className="nav-heading">{heading}</h2>}
      {members.map((p) => (
        <NavLink
          key={p.path}
          to={p.path}
          label={p.label}
          active={p === current}
          badge={badges[p.path] ?? null}
        />
      ))}
    </div>
  );
}

function NavLink({
  to,
  label,
  active,
  badge = null,
}: {
  to: string;
  label: string;
  active: boolean;
  badge?: number | null;
}) {
  return (
    <a
      href={to}
      className={active ? 'active' : undefined}
      aria-current={active ? 'page' : undefined}
      onClick={(e) => {
        e.preventDefault();
        navigate(to);
      }}
    >
      {label}
      {badge ? (
        <span className="nav-badge" aria-label={`${badge >= UNREAD_CAP ? `${UNREAD_CAP}+` : badge} unread`}>
          {badge >= UNREAD_CAP ? `${UNREAD_CAP}+` : badge}
        </span>
      ) : null}
    </a>
  );
}

/** Counted up to this many; more shows as "99+". */
const UNREAD_CAP = 99;

/**
 * The inbox's unread count for the navigation, when the activities addon provides an inbox: its messages and the
 * server's notices (none where the notices addon does not run). Read when the page changes, when news for the user
 * arrives live, and when the inbox screen marks messages (it says so with a "pipewright:inbox" event, the one
 * signal a screen of another bundle can send the shell).
 */
function useUnreadCount(client: PipewrightClient, enabled: boolean, path: string): number | null {
  const count = useLoaded(
    () =>
      Promise.all([
        client
          .graphql<{ inbox: { edges: unknown[] } }>(
            `query Unread($last: Int) { inbox(last: $last, showActiveMessages: true, showUnreadMessages: true) {
          edges { cursor } } }`,
            { last: UNREAD_CAP },
          )
          .then((data) => data.inbox.edges.length),
        client.GET('/api/notices', { params: { query: { unreadOnly: true, limit: 1 } } }).then(
          (answer) => answer.unread,
          () => 0,
        ),
      ]).then(([messages, notices]) => messages + notices),
    [client, path],
    { enabled, live: { client, topics: ['inbox.message'], project: null } },
  );
  const { reload } = count;
  useEffect(() => {
    if (!enabled) return;
    const read = () => void reload();
    window.addEventListener('pipewright:inbox', read);
    return () => window.removeEventListener('pipewright:inbox', read);
  }, [enabled, reload]);
  // A count that could not be read shows no badge rather than an old number.
  return enabled && !count.error ? count.data : null;
}
