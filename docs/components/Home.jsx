const cards = [
  [
    'Run a server in one command',
    'npm install && npm start gives you a server on port 5000 with an embedded PostgreSQL (PGlite). Point it at a real PostgreSQL and Redis when the studio grows.',
    '/docs/server_introduction',
  ],
  [
    'Everything is an addon',
    'Authentication, users, projects and the entity engine use the same defineAddon contract your own addons use.',
    '/docs/dev_addon_intro',
  ],
  [
    'Wire-compatible with AYON 1.11',
    'Same paths, field names, status codes and error bodies, so existing AYON clients, the launcher and its addons keep working.',
    '/docs/dev_api_rest',
  ],
  [
    'Events you can build on',
    'Every change is an event: stored in PostgreSQL, delivered in-process, fanned out through Redis to every server process.',
    '/docs/dev_event_system',
  ],
  [
    'Publishing model',
    'Products, versions and representations: the asset model pipelines already know, stored per project.',
    '/docs/dev_publishing',
  ],
  [
    'Clients and integrations',
    'Launcher, Python and C++ clients, a USD asset resolver and render farm submitters, all on the same API.',
    '/docs/category/apis--resources',
  ],
];

export function HomeCards() {
  return (
    <div className="pw-grid">
      {cards.map(([title, text, href]) => (
        <a key={href} className="pw-card" href={href}>
          <h3>{title}</h3>
          <p>{text}</p>
        </a>
      ))}
    </div>
  );
}
