import type { Problem } from './errors.js';

/** Entity types attributes can apply to. */
export type AttributeScope = 'project' | 'folder' | 'task' | 'product' | 'version' | 'representation' | 'workfile' | 'user' | 'list';

export type AttributeType =
  | 'string'
  | 'integer'
  | 'float'
  | 'boolean'
  | 'datetime'
  | 'list_of_strings'
  | 'list_of_integers'
  | 'list_of_any'
  | 'list_of_submodels'
  | 'dict';

/** How an attribute's values look and behave (the data of GET /api/attributes items). */
export interface AttributeData {
  type: AttributeType;
  title?: string;
  description?: string;
  example?: unknown;
  default?: unknown;
  gt?: number;
  ge?: number;
  lt?: number;
  le?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  regex?: string;
  enum?: { value: unknown; label: string; icon?: string; color?: string; projects?: string[] }[];
  /** Whether folders and tasks inherit the value from their parents; true unless set false. */
  inherit?: boolean;
}

/** One attribute definition. */
export interface AttributeDefinition {
  name: string;
  position: number;
  scope: AttributeScope[];
  builtin: boolean;
  data: AttributeData;
}

/** Provided by the attributes addon: the studio's attribute library. */
export interface AttributeLibrary {
  /** Definitions in position order; only those whose scope includes entityType when given. */
  list(entityType?: AttributeScope): Promise<AttributeDefinition[]>;
  /** Check values for an entity type: unknown names and values that break a definition become problems under loc. */
  validate(entityType: AttributeScope, attrib: Record<string, unknown>, loc: (string | number)[]): Promise<Problem[]>;
  /** Defaults of the attributes of an entity type that declare one (new projects start with these). */
  defaults(entityType: AttributeScope): Promise<Record<string, unknown>>;
  /** Names of the attributes of an entity type that inherit down the hierarchy. */
  inheritable(entityType: AttributeScope): Promise<string[]>;
}

/** An anatomy as AYON stores and exchanges it (snake_case keys). */
export interface Anatomy {
  roots: { name: string; windows: string; linux: string; darwin: string }[];
  templates: Record<string, unknown>;
  attributes: Record<string, unknown>;
  folder_types: { name: string; original_name?: string; shortName?: string; icon?: string }[];
  task_types: { name: string; original_name?: string; shortName?: string; color?: string; icon?: string }[];
  link_types: { link_type: string; input_type: string; output_type: string; color?: string; style?: 'solid' | 'dashed' }[];
  statuses: {
    name: string;
    original_name?: string;
    shortName?: string;
    state?: 'not_started' | 'in_progress' | 'done' | 'blocked';
    icon?: string;
    color?: string;
    scope?: string[];
  }[];
  tags: { name: string; original_name?: string; color?: string }[];
  product_base_types?: Record<string, unknown>;
}

/** The anatomy-derived fields of a project, as the project shows them on the wire (camelCase). */
export interface ProjectLayout {
  folderTypes: Record<string, unknown>[];
  taskTypes: Record<string, unknown>[];
  /** Each with name ("type|input|output"), link_type, input_type, output_type and data {color, style}. */
  linkTypes: Record<string, unknown>[];
  statuses: Record<string, unknown>[];
  tags: Record<string, unknown>[];
  attrib: Record<string, unknown>;
  /** roots as {name: {windows, linux, darwin}}, templates, productBaseTypes. */
  config: Record<string, unknown>;
}

/** Provided by the anatomy addon: presets and the translation between an anatomy and a project's fields. */
export interface AnatomyPresets {
  /** A preset by name; "_" is the primary preset, or the built-in default when none is primary. NotFound when missing. */
  get(name: string): Promise<Anatomy>;
  /** Problems of an anatomy document (422 problems under loc), after filling defaults of missing parts. */
  validate(document: unknown, loc: (string | number)[]): { anatomy: Anatomy | null; problems: Problem[] };
  /** An anatomy as the fields of a project. */
  toProject(anatomy: Anatomy): ProjectLayout;
  /** A project's fields back as an anatomy (GET /api/projects/{p}/anatomy). */
  fromProject(project: ProjectLayout): Anatomy;
}
