import { createServiceRef } from '@pipewright/sdk';
import type { Problem } from '@pipewright/sdk';

/** An anatomy as AYON stores and exchanges it (snake_case keys). */
export interface Anatomy {
  roots: { name: string; windows: string; linux: string; darwin: string }[];
  templates: Record<string, unknown>;
  attributes: Record<string, unknown>;
  folder_types: { name: string; original_name?: string; shortName?: string; icon?: string }[];
  task_types: { name: string; original_name?: string; shortName?: string; color?: string; icon?: string }[];
  link_types: {
    link_type: string;
    input_type: string;
    output_type: string;
    color?: string;
    style?: 'solid' | 'dashed';
  }[];
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

/** The anatomy service of the anatomy addon. */
export const anatomyRef = createServiceRef<AnatomyPresets>({ addon: 'anatomy', id: 'anatomy' });
