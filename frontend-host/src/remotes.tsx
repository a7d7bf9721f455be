import {
  Component,
  createContext,
  lazy,
  Suspense,
  useContext,
  type ComponentType,
  type ReactNode,
} from 'react';
import { loadRemote, registerRemotes } from '@module-federation/enhanced/runtime';
import type { PipewrightClient, ResponseData } from '@pipewright/sdk/client';
import type { ExtensionProps, ScreenProps, ScreenUser } from '@pipewright/sdk/screen';

type FrontendModule = ResponseData<'get', '/api/frontendModules'>[number];

/** Where a screen sits in the navigation: inside the chosen project, among the admin areas, or in the main list. */
export type NavGroup = 'main' | 'project' | 'settings';

/** One screen of an addon: an exposed module of one of its remotes, mounted at its own path. */
export interface AddonPage {
  path: string;
  label: string;
  addonName: string;
  addonVersion: string;
  remote: string;
  /** The id loadRemote takes: "remote/Exposed". */
  id: string;
  group: NavGroup;
}

/** A scope's options as addons declare them in frontendScopes (sdk FrontendScope). */
interface ScopeOptions {
  sidebar?: unknown;
  access?: unknown;
  /** Which exposed module serves the scope ("./Panel" or "remote/Panel"); the first one when left out. */
  module?: unknown;
}

/** Every exposed module of the running addons ("remote/Exposed"), with the addon that serves it. */
const knownModules = new Map<string, { addonName: string; addonVersion: string; remote: string }>();

const GROUP_OF_SCOPE: Record<string, NavGroup> = { project: 'project', settings: 'settings' };

function allowed(access: unknown, user: ScreenUser): boolean {
  if (access === 'admin') return user.isAdmin;
  if (access === 'manager') return user.isAdmin || user.isManager;
  return true;
}

const capitalised = (name: string) => name.charAt(0).toUpperCase() + name.slice(1);

/**
 * The pages of one addon. Without frontendScopes each remote's first module is a page of the main list (a third
 * party's screen needs nothing more). With scopes, each scope is a page: its `module` option, else the first
 * module, labelled by its `sidebar` option, else the addon's title. Two scopes naming the same module share one
 * page, placed by the first of them.
 */
function pagesOfAddon(
  { addonName, addonVersion, modules }: FrontendModule,
  scopes: Record<string, ScopeOptions>,
  title: string,
  user: ScreenUser,
): AddonPage[] {
  const remotes = Object.entries(modules).filter(([, exposed]) => exposed.length > 0);
  if (remotes.length === 0) return [];
  const page = (remote: string, exposed: string, label: string, group: NavGroup): AddonPage => {
    const name = exposed.replace(/^\.\//, '');
    const first = modules[remote]![0]!.replace(/^\.\//, '');
    // The first module of a remote owns the remote's path; any other one gets a path of its own below it.
    const path = `/addon/${addonName}/${remote}${name === first ? '' : `/${name}`}`;
    return { path, label, addonName, addonVersion, remote, id: `${remote}/${name}`, group };
  };

  const declared = Object.entries(scopes);
  if (declared.length === 0)
    return remotes.map(([remote, exposed]) => page(remote, exposed[0]!, title, 'main'));

  const pages = new Map<string, AddonPage>();
  for (const [scope, options] of declared) {
    if (!allowed(options.access, user)) continue;
    const [remote, exposed] = chosenModule(options.module, remotes) ?? [remotes[0]![0], remotes[0]![1][0]!];
    const label = typeof options.sidebar === 'string' && options.sidebar ? options.sidebar : title;
    const candidate = page(remote, exposed, label, GROUP_OF_SCOPE[scope] ?? 'main');
    if (!pages.has(candidate.path)) pages.set(candidate.path, candidate);
  }
  return [...pages.values()];
}

/** The remote and exposed module a scope's `module` option names, if it names one that exists. */
function chosenModule(module: unknown, remotes: [string, string[]][]): [string, string] | null {
  if (typeof module !== 'string') return null;
  const [remoteName, exposedName] =
    module.includes('/') && !module.startsWith('./') ? module.split('/', 2) : [null, module];
  const wanted = `./${exposedName!.replace(/^\.\//, '')}`;
  for (const [remote, exposed] of remotes) {
    if (remoteName && remote !== remoteName) continue;
    if (exposed.includes(wanted)) return [remote, wanted];
  }
  return null;
}

/**
 * Ask the server which remotes the running addons expose (and in which scopes), and register them with the
 * federation runtime. The manifest (not remoteEntry.js) is the entry, since the entry file's name carries a hash.
 */
export async function addonPages(client: PipewrightClient, user: ScreenUser): Promise<AddonPage[]> {
  const modules = await client.GET('/api/frontendModules', { params: { query: { format: 'mf-manifest' } } });
  const pages: AddonPage[] = [];
  const remotes: { name: string; entry: string }[] = [];
  knownModules.clear();
  for (const module of modules) {
    for (const [remote, exposed] of Object.entries(module.modules)) {
      remotes.push({
        name: remote,
        entry: `/addons/${module.addonName}/${module.addonVersion}/frontend/mf-manifest.json`,
      });
      for (const name of exposed)
        knownModules.set(`${remote}/${name.replace(/^\.\//, '')}`, {
          addonName: module.addonName,
          addonVersion: module.addonVersion,
          remote,
        });
    }
    // Scopes only place screens in the navigation: without them every screen still works from the main list.
    const scopes: Record<string, ScopeOptions> = module.frontendScopes ?? {};
    pages.push(...pagesOfAddon(module, scopes, module.title || capitalised(module.addonName), user));
  }
  // force: after an addon upgrade the same remote name points at a new version's manifest.
  registerRemotes(remotes, { force: true });
  return pages;
}

/** The page a path belongs to: its own path, or a sub-path of it (the screen routes those itself). */
export function pageAt(pages: AddonPage[], path: string): AddonPage | undefined {
  let best: AddonPage | undefined;
  for (const page of pages) {
    const inside = path === page.path || path.startsWith(`${page.path}/`);
    if (inside && (!best || page.path.length > best.path.length)) best = page;
  }
  return best;
}

// One lazy component per module id, so navigating back to a page does not load it again.
const components = new Map<string, ComponentType<ScreenProps>>();

function remoteComponent(id: string): ComponentType<ScreenProps> {
  let component = components.get(id);
  if (!component) {
    component = lazy(async () => {
      const module = await loadRemote<{ default?: ComponentType<ScreenProps> } | ComponentType<ScreenProps>>(
        id,
      );
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
class RemoteBoundary extends Component<
  { name: string; children: ReactNode; failed?: (error: Error) => ReactNode },
  { error: Error | null }
> {
  override state: { error: Error | null } = { error: null };

  static getDerivedStateFromError(error: Error) {
    return { error };
  }

  override render() {
    if (!this.state.error) return this.props.children;
    if (this.props.failed) return this.props.failed(this.state.error);
    return (
      <div className="error-box" role="alert" data-remote-error={this.props.name}>
        <strong>The {this.props.name} screen could not be loaded.</strong>
        <p>{this.state.error.message}</p>
        <p className="muted">
          The rest of the app still works. Check that the addon is installed correctly, then reload the page.
        </p>
      </div>
    );
  }
}

/** What the host hands every screen, whichever addon it comes from. */
type SharedScreenProps = Omit<ScreenProps, 'basePath' | 'addon'>;

// The screen props of the page an Extension sits in. Extension itself is one component for the whole app (a new
// component per render would mount the embedded module afresh each time), so it reads them from here.
const ScreenContext = createContext<SharedScreenProps | null>(null);

/** One addon screen in the content area: loaded on first use, handed the ScreenProps, failing in its own box. */
export function RemotePage({ page, screen }: { page: AddonPage; screen: SharedScreenProps }) {
  const Screen = remoteComponent(page.id);
  return (
    // Keyed by module so a failure of one screen does not stay on screen after navigating to another.
    <RemoteBoundary key={page.id} name={page.label}>
      <Suspense fallback={<p className="muted">Loading {page.label}…</p>}>
        <ScreenContext.Provider value={screen}>
          {/* A project screen starts afresh in another project rather than showing the last one's data. */}
          <Screen
            key={page.group === 'project' ? (screen.project ?? '') : undefined}
            {...screen}
            addon={{ name: page.addonName, version: page.addonVersion }}
            basePath={page.path}
          />
        </ScreenContext.Provider>
      </Suspense>
    </RemoteBoundary>
  );
}

/** A quiet line in place of a part another addon would show: the screen around it is not broken. */
function MissingPart({ module, reason }: { module: string; reason: string }) {
  return (
    <p className="muted pw-extension-missing" data-extension-missing={module}>
      {reason}
    </p>
  );
}

/**
 * ScreenProps.Extension: another addon's exposed module inside a screen, handed the same screen props (its own
 * addon and basePath) plus `props`. An addon that is not installed, or a module that fails, leaves a quiet note.
 */
export function Extension({ module, props, fallback }: ExtensionProps) {
  const screen = useContext(ScreenContext);
  const owner = knownModules.get(module);
  // fallback={null} asks for nothing at all in place of the part; left out, a note says what is missing.
  const instead = (reason: string) =>
    fallback !== undefined ? fallback : <MissingPart module={module} reason={reason} />;
  if (!screen || !owner) return instead(`Not available: no installed addon provides ${module}.`);
  const Part = remoteComponent(module);
  return (
    <RemoteBoundary
      key={module}
      name={module}
      failed={(error) => instead(`${module} could not be loaded (${error.message}).`)}
    >
      <Suspense fallback={<p className="muted">Loading…</p>}>
        <Part
          {...screen}
          addon={{ name: owner.addonName, version: owner.addonVersion }}
          basePath={`/addon/${owner.addonName}/${owner.remote}`}
          {...props}
        />
      </Suspense>
    </RemoteBoundary>
  );
}
