import type { Anatomy, ProjectLayout } from './api.js';

type Json = Record<string, unknown>;

// original_name is only meaningful once a type was renamed, so it travels only when present: that keeps
// fromProject(toProject(a)) equal to a.
const withOriginal = (item: { original_name?: string }, fields: Json): Json =>
  item.original_name === undefined ? fields : { ...fields, original_name: item.original_name };

const str = (value: unknown, fallback: string): string => (typeof value === 'string' ? value : fallback);
const list = (value: unknown): Json[] => (Array.isArray(value) ? (value as Json[]) : []);
const originalOf = (item: Json) =>
  typeof item.original_name === 'string' ? { original_name: item.original_name } : {};

/** An anatomy as the fields of a project (camelCase, roots keyed by name, link types named type|input|output). */
export function toProject(anatomy: Anatomy): ProjectLayout {
  return {
    folderTypes: anatomy.folder_types.map((t) =>
      withOriginal(t, { name: t.name, shortName: t.shortName ?? '', icon: t.icon ?? 'folder' }),
    ),
    taskTypes: anatomy.task_types.map((t) =>
      withOriginal(t, {
        name: t.name,
        shortName: t.shortName ?? '',
        color: t.color ?? '#cccccc',
        icon: t.icon ?? 'task_alt',
      }),
    ),
    statuses: anatomy.statuses.map((s) =>
      withOriginal(s, {
        name: s.name,
        shortName: s.shortName ?? '',
        state: s.state ?? 'not_started',
        icon: s.icon ?? '',
        color: s.color ?? '#cacaca',
        scope: [...(s.scope ?? [])],
      }),
    ),
    tags: anatomy.tags.map((t) => withOriginal(t, { name: t.name, color: t.color ?? '#cacaca' })),
    linkTypes: anatomy.link_types.map((l) => ({
      name: `${l.link_type}|${l.input_type}|${l.output_type}`,
      link_type: l.link_type,
      input_type: l.input_type,
      output_type: l.output_type,
      data: { color: l.color ?? '#9e9e9e', style: l.style ?? 'solid' },
    })),
    attrib: structuredClone(anatomy.attributes),
    config: {
      roots: Object.fromEntries(
        anatomy.roots.map((r) => [r.name, { windows: r.windows, linux: r.linux, darwin: r.darwin }]),
      ),
      templates: structuredClone(anatomy.templates),
      productBaseTypes: structuredClone(anatomy.product_base_types ?? {}),
    },
  };
}

/** A project's anatomy-derived fields back as an anatomy document. */
export function fromProject(project: ProjectLayout): Anatomy {
  const config = project.config ?? {};
  const roots = (config.roots ?? {}) as Record<string, Json>;
  return {
    roots: Object.entries(roots).map(([name, paths]) => ({
      name,
      windows: str(paths?.windows, ''),
      linux: str(paths?.linux, ''),
      darwin: str(paths?.darwin, ''),
    })),
    templates: structuredClone((config.templates ?? {}) as Json),
    attributes: structuredClone(project.attrib ?? {}),
    folder_types: list(project.folderTypes).map((t) => ({
      name: str(t.name, ''),
      ...originalOf(t),
      shortName: str(t.shortName, ''),
      icon: str(t.icon, 'folder'),
    })),
    task_types: list(project.taskTypes).map((t) => ({
      name: str(t.name, ''),
      ...originalOf(t),
      shortName: str(t.shortName, ''),
      color: str(t.color, '#cccccc'),
      icon: str(t.icon, 'task_alt'),
    })),
    link_types: list(project.linkTypes).map((l) => {
      // Older rows may carry only the composed name; its three parts are the same facts.
      const [type, input, output] = str(l.name, '').split('|');
      const data = (l.data ?? {}) as Json;
      return {
        link_type: str(l.link_type, type ?? ''),
        input_type: str(l.input_type, input ?? ''),
        output_type: str(l.output_type, output ?? ''),
        color: str(data.color, '#9e9e9e'),
        style: data.style === 'dashed' ? 'dashed' : 'solid',
      };
    }),
    statuses: list(project.statuses).map((s) => ({
      name: str(s.name, ''),
      ...originalOf(s),
      shortName: str(s.shortName, ''),
      state: str(s.state, 'not_started') as Anatomy['statuses'][number]['state'],
      icon: str(s.icon, ''),
      color: str(s.color, '#cacaca'),
      scope: Array.isArray(s.scope) ? s.scope.map(String) : [],
    })),
    tags: list(project.tags).map((t) => ({
      name: str(t.name, ''),
      ...originalOf(t),
      color: str(t.color, '#cacaca'),
    })),
    product_base_types: structuredClone((config.productBaseTypes ?? {}) as Json),
  };
}
