import { useEffect, useMemo, useState } from 'react';
import type { PipewrightClient } from '@pipewright/sdk/client';
import type { ScreenUser } from '@pipewright/sdk/screen';
import { messageOf } from '@pipewright/sdk/ui';
import type { User } from '../api';
import { addonPages, Extension, pageAt, RemotePage, type AddonPage, type NavGroup } from '../remotes';
import { ChooseProject } from './ChooseProject';
import { ProjectSwitcher, useCurrentProject } from './ProjectSwitcher';
import { navigate, usePath } from './router';
import { useTheme } from './theme';
import { UserMenu } from './UserMenu';

function screenUser(user: User): ScreenUser {
  return { name: user.name, isAdmin: user.data?.isAdmin === true, isManager: user.data?.isManager === true };
}

/** The frame around every screen: top bar, navigation built from the addons' remotes, and the page. */
export function Layout({
  client,
  user,
  onLogout,
}: {
  client: PipewrightClient;
  user: User;
  onLogout(): void;
}) {
  const [theme, toggleTheme] = useTheme();
  const [project, setProject] = useCurrentProject();
  const [pages, setPages] = useState<AddonPage[] | null>(null);
  const [pagesError, setPagesError] = useState<string | null>(null);
  const path = usePath();
  const who = useMemo(() => screenUser(user), [user]);
  useProjectFromAddress(project, setProject);

  useEffect(() => {
    addonPages(client, who)
      .then(setPages)
      .catch((failure: unknown) => setPagesError(messageOf(failure)));
  }, [client, who]);

  const page = pages ? pageAt(pages, path) : undefined;

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
        <ProjectSwitcher client={client} current={project} onChange={setProject} />
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
        <NavGroupLinks pages={pages} group="main" current={page} />
        <NavGroupLinks pages={pages} group="project" current={page} heading={project ?? 'Project'} />
        <NavGroupLinks pages={pages} group="settings" current={page} heading="Settings" />
        {pagesError && <p className="error-box">Addon screens unavailable: {pagesError}</p>}
      </nav>
      <main className="content">
        {path === '/' ? (
          <Home user={user} project={project} pages={pages} />
        ) : page ? (
          page.group === 'project' && !project ? (
            <ChooseProject client={client} screen={page.label} onChoose={setProject} pages={pages ?? []} />
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
}: {
  pages: AddonPage[] | null;
  group: NavGroup;
  current: AddonPage | undefined;
  heading?: string;
}) {
  const members = pages?.filter((p) => p.group === group) ?? [];
  if (members.length === 0) return null;
  return (
    // Headings rather than labelled groups: "Project" as a label would be one more element that answers to the
    // project switcher's name.
    <div className="nav-group">
      {heading && <h2 className="nav-heading">{heading}</h2>}
      {members.map((p) => (
        <NavLink key={p.path} to={p.path} label={p.label} active={p === current} />
      ))}
    </div>
  );
}

function NavLink({ to, label, active }: { to: string; label: string; active: boolean }) {
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
    </a>
  );
}

function Home({ user, project, pages }: { user: User; project: string | null; pages: AddonPage[] | null }) {
  return (
    <section>
      <h1>Welcome, {user.attrib?.fullName || user.name}</h1>
      <p className="muted">
        {project ? `Working in ${project}.` : 'Choose a project in the top bar to work in it.'}
      </p>
      {pages && pages.length === 0 && (
        <p className="muted">
          No addon provides screens yet. Installed addons with a web interface appear in the navigation.
        </p>
      )}
    </section>
  );
}
