import { categories, groups } from '../content/pages.mjs';

// Link lists built from content/pages.mjs: every group for the docs root, one group for a category page.
export function DocList({ group }) {
  const selected = group ? groups.filter((g) => g.id === group) : groups;
  return (
    <div className="pw-doc-index">
      {selected.map((g) => (
        <section key={g.id} style={{ marginTop: '1.5rem' }}>
          {!group && (
            <h2 id={g.id} className="x:font-semibold x:tracking-tight x:text-2xl x:mt-10 x:mb-3">
              {g.title}
            </h2>
          )}
          {g.description && <p>{g.description}</p>}
          <ul style={{ listStyle: 'disc', paddingLeft: '1.5rem', marginTop: '0.5rem' }}>
            {Object.entries(g.pages).map(([docId, title]) => (
              <li key={docId} style={{ margin: '0.3rem 0' }}>
                <a className="x:text-primary-600 x:underline" href={`/docs/${docId}`}>
                  {title}
                </a>
              </li>
            ))}
          </ul>
        </section>
      ))}
    </div>
  );
}

export function CategoryLinks() {
  return (
    <ul style={{ listStyle: 'disc', paddingLeft: '1.5rem' }}>
      {categories.map((c) => (
        <li key={c.id}>
          <a className="x:text-primary-600 x:underline" href={`/docs/category/${c.id}`}>
            {c.title}
          </a>
        </li>
      ))}
    </ul>
  );
}
