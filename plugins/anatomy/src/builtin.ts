import { PROJECT_ENTITY_TYPES } from '@pipewright/sdk';
import type { Anatomy } from './api.js';

// The anatomy served as "_" while no preset is primary, and the source of every part a stored preset leaves out.
// It follows AYON's layout (one "work" root, v001 versions, 0001 frames) with values of our own choosing.

const shotPath = '{root[work]}/{project[name]}/{hierarchy}/{folder[name]}';
const publishPath = `${shotPath}/publish/{product[type]}/{product[name]}`;

export const BUILTIN_ANATOMY: Anatomy = {
  roots: [{ name: 'work', windows: 'C:/projects', linux: '/mnt/projects', darwin: '/Volumes/projects' }],
  templates: {
    version_padding: 3,
    version: 'v{version:0>{@version_padding}}',
    frame_padding: 4,
    frame: '{frame:0>{@frame_padding}}',
    work: [
      {
        name: 'default',
        directory: `${shotPath}/work/{task[name]}`,
        file: '{project[code]}_{folder[name]}_{task[name]}_{@version}<_{comment}>.{ext}',
      },
    ],
    publish: [
      {
        name: 'default',
        directory: `${publishPath}/{@version}`,
        file: '{project[code]}_{folder[name]}_{product[name]}_{@version}<_{output}><.{@frame}>.{ext}',
      },
    ],
    hero: [
      {
        name: 'default',
        directory: `${publishPath}/hero`,
        file: '{project[code]}_{folder[name]}_{product[name]}_hero<_{output}><.{@frame}>.{ext}',
      },
    ],
    delivery: [],
    staging: [],
    others: [],
  },
  attributes: {
    priority: 'normal',
    fps: 25,
    resolutionWidth: 1920,
    resolutionHeight: 1080,
    pixelAspect: 1,
    clipIn: 1,
    clipOut: 1,
    frameStart: 1001,
    frameEnd: 1001,
    handleStart: 0,
    handleEnd: 0,
  },
  folder_types: [
    { name: 'Folder', shortName: 'fld', icon: 'folder' },
    { name: 'Library', shortName: 'lib', icon: 'category' },
    { name: 'Asset', shortName: 'ast', icon: 'smart_toy' },
    { name: 'Episode', shortName: 'ep', icon: 'live_tv' },
    { name: 'Sequence', shortName: 'sq', icon: 'theaters' },
    { name: 'Shot', shortName: 'sh', icon: 'movie' },
  ],
  task_types: [
    { name: 'Generic', shortName: 'gen', color: '#5c6bc0', icon: 'task_alt' },
    { name: 'Art', shortName: 'art', color: '#ec407a', icon: 'palette' },
    { name: 'Modeling', shortName: 'mdl', color: '#42a5f5', icon: 'view_in_ar' },
    { name: 'Texture', shortName: 'tex', color: '#8d6e63', icon: 'texture' },
    { name: 'Lookdev', shortName: 'look', color: '#ab47bc', icon: 'ev_shadow' },
    { name: 'Rigging', shortName: 'rig', color: '#26a69a', icon: 'accessibility_new' },
    { name: 'Edit', shortName: 'edit', color: '#78909c', icon: 'content_cut' },
    { name: 'Layout', shortName: 'lay', color: '#66bb6a', icon: 'space_dashboard' },
    { name: 'Setdress', shortName: 'dress', color: '#9ccc65', icon: 'chair' },
    { name: 'Animation', shortName: 'anim', color: '#ffa726', icon: 'directions_run' },
    { name: 'FX', shortName: 'fx', color: '#ef5350', icon: 'local_fire_department' },
    { name: 'Lighting', shortName: 'lgt', color: '#fdd835', icon: 'highlight' },
    { name: 'Paint', shortName: 'paint', color: '#d4e157', icon: 'brush' },
    { name: 'Compositing', shortName: 'comp', color: '#29b6f6', icon: 'layers' },
    { name: 'Roto', shortName: 'roto', color: '#7e57c2', icon: 'gesture' },
    { name: 'Matchmove', shortName: 'mm', color: '#26c6da', icon: 'switch_video' },
  ],
  link_types: [
    {
      link_type: 'generative',
      input_type: 'version',
      output_type: 'version',
      color: '#43a047',
      style: 'solid',
    },
    { link_type: 'breakdown', input_type: 'folder', output_type: 'folder', color: '#1e88e5', style: 'solid' },
    {
      link_type: 'reference',
      input_type: 'version',
      output_type: 'version',
      color: '#9e9e9e',
      style: 'dashed',
    },
  ],
  // The first status whose scope covers an entity type is what new entities of that type get, so "Not ready"
  // covers everything; "Ready to start" is for folders and tasks, as in AYON's default anatomy.
  statuses: [
    {
      name: 'Not ready',
      shortName: 'NRD',
      state: 'not_started',
      icon: 'fiber_new',
      color: '#6b7280',
      scope: [...PROJECT_ENTITY_TYPES],
    },
    {
      name: 'Ready to start',
      shortName: 'RDY',
      state: 'not_started',
      icon: 'timer',
      color: '#b0bec5',
      scope: ['folder', 'task'],
    },
    {
      name: 'In progress',
      shortName: 'WIP',
      state: 'in_progress',
      icon: 'play_arrow',
      color: '#3b82f6',
      scope: [...PROJECT_ENTITY_TYPES],
    },
    {
      name: 'Pending review',
      shortName: 'PRV',
      state: 'in_progress',
      icon: 'visibility',
      color: '#a855f7',
      scope: [...PROJECT_ENTITY_TYPES],
    },
    {
      name: 'Approved',
      shortName: 'APP',
      state: 'done',
      icon: 'task_alt',
      color: '#22c55e',
      scope: [...PROJECT_ENTITY_TYPES],
    },
    {
      name: 'On hold',
      shortName: 'HLD',
      state: 'blocked',
      icon: 'back_hand',
      color: '#f97316',
      scope: [...PROJECT_ENTITY_TYPES],
    },
    {
      name: 'Omitted',
      shortName: 'OMT',
      state: 'blocked',
      icon: 'block',
      color: '#ef4444',
      scope: [...PROJECT_ENTITY_TYPES],
    },
  ],
  tags: [
    { name: 'urgent', color: '#e53935' },
    { name: 'retake', color: '#fb8c00' },
  ],
  product_base_types: {},
};

/** A fresh copy: callers fill and store it, and the shared default must never change underneath them. */
export function builtinAnatomy(): Anatomy {
  return structuredClone(BUILTIN_ANATOMY);
}
