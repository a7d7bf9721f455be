import type { ScreenProps } from '@pipewright/sdk/screen';
import { callRoute, ErrorBox, useLoaded } from '@pipewright/sdk/ui';

/** The addon's screen in the web app: calls the addon's own route as the logged-in user. */
export default function Panel({ addon, client, user }: ScreenProps) {
  // The web app's client carries the session; callRoute reaches routes outside the typed API paths, such as the
  // addon's own. Core routes are typed: client.GET('/api/users/me'), client.graphql(...), client.operations(...).
  const hello = useLoaded(
    () =>
      callRoute<{ message: string; visits: number }>(
        client,
        `/api/addons/${addon.name}/${addon.version}/hello`,
      ),
    [client, addon.name, addon.version],
  );

  if (hello.error) return <ErrorBox prefix="The addon could not be reached:" error={hello.error} />;
  if (!hello.data) return <p className="muted">Loading…</p>;
  return (
    <section className="pw-screen">
      <h2>{hello.data.message}</h2>
      <p>
        {user.name}, this is visit number {hello.data.visits}.
      </p>
    </section>
  );
}
