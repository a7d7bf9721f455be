/** A signing secret, shown the one time the server tells it. */
export function SecretNotice({ secret }: { secret: string }) {
  return (
    <div className="notice wh-secret" role="status" aria-label="Signing secret">
      <strong>Copy the signing secret now: it is not shown again.</strong>
      <code>{secret}</code>
      <span className="muted">Receivers verify each message's webhook-signature with it.</span>
    </div>
  );
}
