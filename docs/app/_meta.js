// Top level: what the navigation bar shows. type 'page' items are navbar links; 'menu' items are dropdowns.
export default {
  index: {
    type: 'page',
    display: 'hidden',
    theme: { layout: 'full', toc: false, sidebar: false, pagination: false, timestamp: false },
  },
  features: {
    type: 'page',
    title: 'Features',
    theme: { toc: false, sidebar: false, pagination: false, timestamp: false },
  },
  docs: { type: 'page', title: 'Dev Docs' },
  resources: {
    type: 'menu',
    title: 'Dev resources',
    items: {
      rest: { title: 'REST API docs', href: '/api' },
      graphql: { title: 'GraphQL explorer', href: '/docs/dev_api_graphql' },
      python: { title: 'Python API docs', href: '/docs/dev_api_python' },
      cpp: { title: 'C++ API docs', href: '/docs/dev_api_cpp' },
      usd: { title: 'USD resolver API docs', href: '/docs/dev_api_usd_resolver' },
      react: { title: 'React components', href: '/docs/dev_components_react' },
      frontendWiki: {
        title: 'Frontend wiki (GitHub) ↗',
        href: 'https://github.com/pipewright/pipewright/wiki/Frontend',
      },
      backendWiki: {
        title: 'Backend wiki (GitHub) ↗',
        href: 'https://github.com/pipewright/pipewright/wiki/Backend',
      },
      serverSeparator: { title: '— Server documentation —', href: '/docs/server_introduction' },
      serverArchitecture: { title: 'Server architecture', href: '/docs/server_api_architecture' },
      serverTesting: { title: 'Testing the server', href: '/docs/server_testing' },
      addonsSeparator: { title: '— Addons documentation —', href: '/docs/category/addon-development' },
      addonContract: { title: 'Addon contract', href: '/docs/dev_addon_intro' },
      addonCreation: { title: 'Building an addon', href: '/docs/dev_addon_creation' },
      addonHosts: { title: 'Host integrations', href: '/docs/dev_host_implementation' },
      addonColour: { title: 'Colour management (OCIO)', href: '/docs/dev_colorspace' },
      addonAquarium: { title: 'Aquarium connector', href: '/docs/addon_aquarium_developer' },
      addonDeadline: { title: 'Deadline', href: '/docs/dev_deadline' },
      userDocs: { title: 'User Docs (help site) ↗', href: 'https://help.pipewright.dev/user' },
      adminDocs: { title: 'Admin Docs (help site) ↗', href: 'https://help.pipewright.dev/admin' },
    },
  },
  api: {
    type: 'page',
    title: 'REST API Docs',
    theme: {
      layout: 'full',
      toc: false,
      sidebar: false,
      pagination: false,
      timestamp: false,
      copyPage: false,
    },
  },
  addons: {
    type: 'menu',
    title: 'Addons',
    items: {
      webPublisher: {
        title: 'Web Publisher (product page) ↗',
        href: 'https://pipewright.dev/addons/web-publisher',
      },
      nodeGraph: { title: 'Node Graph (product page) ↗', href: 'https://pipewright.dev/addons/node-graph' },
    },
  },
  version: {
    type: 'menu',
    title: 'Next',
    items: { next: { title: 'Next (current, unreleased)', href: '/docs/dev_introduction' } },
  },
  locale: {
    type: 'menu',
    title: 'English',
    items: { en: { title: 'English', href: '/' } },
  },
  search: {
    type: 'page',
    display: 'hidden',
    theme: { toc: false, sidebar: false, pagination: false, timestamp: false, copyPage: false },
  },
};
