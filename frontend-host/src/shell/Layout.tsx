import { useEffect, useState } from 'react';
import type { User } from '../api';
import { addonPages, RemotePage, type AddonPage } from '../remotes';
import { ProjectSwitcher, useCurrentProject } from './ProjectSwitcher';
import { navigate, usePath } from './router';
import { useTheme } from './theme';
import { UserMenu } from './UserMenu';

/** The frame around every screen: top bar, navigation built from the addons' remotes, and the page. */
export function Layout({ user, onLogout }: { user: User; onLogout(): void }) {
  const [theme, toggleTheme] = useTheme();
  const [project, setProject] = useCurrentProject();
  const [pages, setPages] = useState<AddonPage[] | null>(null);
  const [pagesError, setPagesError] = useState<string | null>(null);
  const path = usePath();

  useEffect(() => {
    addonPages()
      .then(setPages)
      .catch((failure: Error) => setPagesError(failure.message));
  }, []);

  const page = pages?.find((p) => p.path === path);

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
        <button type="button" onClick={toggleTheme} aria-label="Switch theme" title="Switch between dark and light">
          {theme === 'dark' ? 'Light theme' : 'Dark theme'}
        </button>
        <UserMenu user={user} onLogout={onLogout} />
      </header>
      <nav className="sidebar" aria-label="Main">
        <NavLink to="/" label="Home" active={path === '/'} />
        {pages?.map((p) => <NavLink key={p.path} to={p.path} label={p.label} active={p.path === path} />)}
        {pagesError && <p className="error-box">Addon screens unavailable: {pagesError}</p>}
      </nav>
      <main className="content">
        {path === '/' ? (
          <Home user={user} project={project} pages={pages} />
        ) : page ? (
          <RemotePage page={page} project={project} />
        ) : pages ? (
          <p className="muted">There is no page at {path}. Pick one in the navigation.</p>
        ) : (
          <p className="muted">Loading…</p>
        )}
      </main>
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
      <p className="muted">{project ? `Working in ${project}.` : 'Choose a project in the top bar to work in it.'}</p>
      {pages && pages.length === 0 && <p className="muted">No addon provides screens yet. Installed addons with a web interface appear in the navigation.</p>}
    </section>
  );
}
