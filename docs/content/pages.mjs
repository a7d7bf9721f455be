// The documentation pages, one per docId, in sidebar order. The sidebar (_meta.js), the docs root, the category
// index pages and the end-to-end tests all read this list, so a page cannot be added in one place and missed in another.

export const SIDEBAR_NAME = 'Dev';
export const MAIN_DOC = 'dev_introduction';
export const EDIT_BASE = 'https://github.com/pipewright/pipewright/tree/main/website';

export const groups = [
  {
    id: 'dev',
    title: 'Getting started',
    pages: {
      dev_introduction: 'Introduction',
      dev_requirements: 'Requirements',
      dev_dev_mode: 'Developer mode',
      dev_testing: 'Testing',
      dev_contribute: 'Contributing',
    },
  },
  {
    id: 'server',
    title: 'Server',
    pages: {
      server_introduction: 'Server introduction',
      server_api_architecture: 'Server architecture',
      server_testing: 'Testing the server',
      server_theme: 'Web app theme',
    },
  },
  {
    id: 'addon-development',
    title: 'Addon development',
    description:
      'How an addon is put together, how it talks to the rest of the server and how it reaches artists.',
    pages: {
      dev_addon_intro: 'Addons: the contract',
      dev_addon_creation: 'Building an addon',
      dev_ayon_addons: 'AYON addons on Pipewright',
      dev_event_system: 'Event system',
      dev_publishing: 'Publishing',
      dev_host_implementation: 'Host integrations',
      dev_colorspace: 'Colour management',
      dev_components_react: 'React components',
      addon_aquarium_developer: 'Tracker connector: Aquarium',
      dev_deadline: 'Render farm: Deadline',
    },
  },
  {
    id: 'apis--resources',
    title: 'APIs & resources',
    description:
      'Every way a program can talk to Pipewright: the HTTP interfaces and the client libraries built on them.',
    pages: {
      dev_api_rest: 'REST API',
      dev_api_graphql: 'GraphQL API',
      dev_api_python: 'Python client',
      dev_api_compatibility: 'AYON compatibility',
      dev_api_cpp: 'C++ client',
      dev_api_usd_resolver: 'USD asset resolver',
    },
  },
  {
    id: 'review',
    title: 'Review',
    description: 'Reviewing versions in the web app, and the annotations review tools trade.',
    pages: {
      review_reviewing: 'Reviewing',
      review_annotations: 'Annotations and interchange',
      review_guest_links: 'Guest links',
    },
  },
  {
    id: 'launcher',
    title: 'Launcher',
    pages: {
      dev_launcher: 'Launcher',
      dev_launcher_build_linux: 'Build the launcher on Linux',
      dev_launcher_build_macos: 'Build the launcher on macOS',
      dev_launcher_build_windows: 'Build the launcher on Windows',
    },
  },
];

/** docId -> title, in sidebar order. */
export const pages = Object.fromEntries(groups.flatMap((group) => Object.entries(group.pages)));
export const docIds = Object.keys(pages);

/** Category index pages (/docs/category/{id}). */
export const categories = groups.filter((group) => group.description);
