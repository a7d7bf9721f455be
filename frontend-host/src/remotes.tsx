import { Component, lazy, Suspense, type ComponentType, type ReactNode } from 'react';
import { loadRemote, registerRemotes } from '@module-federation/enhanced/runtime';
import { api, type FrontendModule } from './api';

/** What an addon's screen receives from the shell. */
export interface RemoteProps {
  project: string | null;
}

/** One screen of an addon in the navigation: the first module its remote exposes. */
export interface AddonPage {
  path: string;
  label: string;
  addonName: string;
  remote: string;
  /** The id loadRemote takes: "remote/Exposed". */
  id: string;
}

/**
 * Ask the server which remotes the running addons expose and register them with the federation runtime.
 * The manifest (not remoteEntry.js) is the entry, since the entry file's name carries a build hash.
 */
export async function addonPages(): Promise<AddonPage[]> {
  const modules = await api<FrontendModule[]>('/api/frontendModules');
  const pages: AddonPage[] = [];
  const remotes: { name: string; entry: string }[] = [];
  for (const { addonName, addonVersion, modules: exposed } of modules) {
    for (const [remote, paths] of Object.entries(exposed)) {
      remotes.push({ name: remote, entry: `/addons/${addonName}/${addonVersion}/frontend/mf-manifest.json` });
      const first = paths[0];
      if (!first) continue;
      pages.push({
        path: `/addon/${addonName}/${remote}`,
        label: addonName.charAt(0).toUpperCase() + addonName.slice(1),
        addonName,
        remote,
        id: `${remote}/${first.replace(/^\.\//, '')}`,
      });
    }
  }
  // force: after an addon upgrade the same remote name points at a new version's manifest.
  registerRemotes(remotes, { force: true });
  return pages;
}

// One lazy component per module id, so navigating back to a page does not load it again.
const components = new Map<string, ComponentType<RemoteProps>>();

function remoteComponent(id: string): ComponentType<RemoteProps> {
  let component = components.get(id);
  if (!component) {
    component = lazy(async () => {
      const module = await loadRemote<{ default?: ComponentType<RemoteProps> } | ComponentType<RemoteProps>>(id);
      if (!module) throw new Error(`the remote module ${id} could not be loaded`);
      const exported = typeof module === 'function' ? module : module.default;
      if (!exported) throw new Error(`the remote module ${id} has no default export`);
      return { default: exported };
    });
    components.set(id, component);
  }
  return component;
}

/** Keeps a failing addon screen inside its own box: the shell and the other screens go on working. */
class RemoteBoundary extends Component<{ name: string; children: ReactNode }, { error: Error | null }> {
  override state: { error: Error | null } = { error: null };

  static getDerivedStateFromError(error: Error) {
    return { error };
  }

  override render() {
    if (!this.state.error) return this.props.children;
    return (
      <div className="error-box" role="alert" data-remote-error={this.props.name}>
        <strong>The {this.props.name} screen could not be loaded.</strong>
        <p>{this.state.error.message}</p>
        <p className="muted">The rest of the app still works. Check that the addon is installed correctly, then reload the page.</p>
      </div>
    );
  }
}

export function RemotePage({ page, project }: { page: AddonPage; project: string | null }) {
  const Screen = remoteComponent(page.id);
  return (
    // Keyed by module so a failure of one screen does not stay on screen after navigating to another.
    <RemoteBoundary key={page.id} name={page.label}>
      <Suspense fallback={<p className="muted">Loading {page.label}…</p>}>
        <Screen project={project} />
      </Suspense>
    </RemoteBoundary>
  );
}
