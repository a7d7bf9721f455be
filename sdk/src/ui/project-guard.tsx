// A project screen opened while no project is chosen in the top bar (the web app's first visit, a link without one).

/**
 * What a project screen shows while no project is chosen: its title and where to choose one. `purpose` ends the
 * sentence "Choose a project in the project menu at the top to …" ("see its lists").
 */
export function NoProjectChosen({ title, purpose }: { title: string; purpose: string }) {
  return (
    <section className="pw-screen">
      <h1>{title}</h1>
      <p className="muted">Choose a project in the project menu at the top to {purpose}.</p>
    </section>
  );
}
