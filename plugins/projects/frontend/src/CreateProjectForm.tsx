import { useState } from 'react';
import { ErrorBox, Field, problemsOf, useAction, useClient, useLoaded } from '@pipewright/sdk/ui';

interface Preset {
  name: string;
  primary: boolean;
}

/** "_" is whichever anatomy is in force: the primary preset when one is marked, else the built-in one. */
function presetLabel(preset: Preset, presets: Preset[]): string {
  if (preset.name !== '_') return preset.primary ? `${preset.name} (primary)` : preset.name;
  const primary = presets.find((p) => p.name !== '_' && p.primary);
  return primary ? `Studio default (${primary.name})` : 'Built-in default';
}

// Project names and codes allow letters, digits and underscores; a code is what file names carry, so short.
const suggestedCode = (name: string) =>
  name
    .replace(/[^a-zA-Z0-9]/g, '')
    .slice(0, 8)
    .toLowerCase();

/** Creates a project from an anatomy preset; the server fills its statuses, types and tags from the preset. */
export function CreateProjectForm({
  taken,
  onCreated,
  onCancel,
}: {
  taken: string[];
  onCreated(name: string): void;
  onCancel?: () => void;
}) {
  const client = useClient();
  const presets: Preset[] | null = useLoaded(
    () =>
      client
        .GET('/api/anatomy/presets')
        .then((answer) => answer.presets)
        // Without the list the built-in default still works: creation is not blocked.
        .catch(() => [{ name: '_', primary: true }]),
    [client],
  ).data;
  const [name, setName] = useState('');
  const [code, setCode] = useState('');
  const [codeTouched, setCodeTouched] = useState(false);
  const [preset, setPreset] = useState('_');
  const [library, setLibrary] = useState(false);

  const nameTaken = taken.some((t) => t.toLowerCase() === name.trim().toLowerCase());

  const creation = useAction();
  const submit = creation.submit(async () => {
    await client.POST('/api/projects', { body: { name: name.trim(), code: code.trim(), preset, library } });
    onCreated(name.trim());
  });
  // The server's reasons, at the field they concern (loc ["body", "code"]).
  const fieldErrors: Record<string, string> = {};
  for (const problem of problemsOf(creation.error)) fieldErrors[String(problem.loc.at(-1))] ??= problem.msg;

  return (
    <form className="pw-panel pwp-create" onSubmit={submit} aria-label="New project">
      <h2>New project</h2>
      <div className="pwp-fields">
        <Field
          label="Name"
          hint="Letters, digits and _"
          error={fieldErrors.name ?? (nameTaken ? 'A project with this name exists already' : null)}
        >
          {(props) => (
            <input
              {...props}
              name="name"
              value={name}
              required
              pattern="[a-zA-Z0-9_]+"
              maxLength={64}
              autoFocus
              placeholder="e.g. feature_2026"
              onChange={(e) => {
                setName(e.target.value);
                if (!codeTouched) setCode(suggestedCode(e.target.value));
              }}
            />
          )}
        </Field>
        <Field label="Code" hint="Short, used in file names" error={fieldErrors.code}>
          {(props) => (
            <input
              {...props}
              name="code"
              value={code}
              required
              pattern="[a-zA-Z0-9_]+"
              maxLength={64}
              onChange={(e) => {
                setCode(e.target.value);
                setCodeTouched(true);
              }}
            />
          )}
        </Field>
        <Field label="Anatomy preset" hint="Statuses, folder and task types, tags and roots to start from">
          {(props) => (
            <select
              {...props}
              name="preset"
              value={preset}
              onChange={(e) => setPreset(e.target.value)}
              disabled={!presets}
            >
              {(presets ?? [{ name: '_', primary: true }]).map((p) => (
                <option key={p.name} value={p.name}>
                  {presetLabel(p, presets ?? [])}
                </option>
              ))}
            </select>
          )}
        </Field>
        <label className="pw-inline pwp-check">
          <input type="checkbox" checked={library} onChange={(e) => setLibrary(e.target.checked)} />
          Library project (shared assets, not a production)
        </label>
      </div>
      <ErrorBox error={creation.error} />
      <div className="pwp-actions">
        <button type="submit" className="primary" disabled={creation.busy || nameTaken}>
          {creation.busy ? 'Creating the project…' : 'Create project'}
        </button>
        {onCancel && (
          <button type="button" onClick={onCancel} disabled={creation.busy}>
            Cancel
          </button>
        )}
      </div>
    </form>
  );
}
