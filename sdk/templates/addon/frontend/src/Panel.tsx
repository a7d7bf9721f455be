import { useEffect, useState } from 'react';
import type { ScreenProps } from '@pipewright/sdk/screen';

/** The addon's screen in the web app: calls the addon's own route as the logged-in user. */
export default function Panel({ addon, token, user }: ScreenProps) {
  const [answer, setAnswer] = useState<{ message: string; visits: number } | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    fetch(`/api/addons/${addon.name}/${addon.version}/hello`, {
      headers: { authorization: `Bearer ${token}` },
    })
      .then(async (response) => {
        if (!response.ok) throw new Error(`${response.status}: ${(await response.json()).detail}`);
        setAnswer(await response.json());
      })
      .catch((failure: Error) => setError(failure.message));
  }, [addon.name, addon.version, token]);

  if (error) return <p role="alert">The addon could not be reached: {error}</p>;
  if (!answer) return <p>Loading…</p>;
  return (
    <section>
      <h2>{answer.message}</h2>
      <p>
        {user.name}, this is visit number {answer.visits}.
      </p>
    </section>
  );
}
