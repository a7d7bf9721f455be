import { useEffect, useId, useState, type FormEvent, type ReactNode } from 'react';
import { ApiError, describe, type Api } from './api';

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
  api,
  taken,
  onCreated,
  onCancel,
}: {
  api: Api;
  taken: string[];
  onCreated(name: string): void;
  onCancel?: () => void;
}) {
  const [presets, setPresets] = useState<Preset[] | null>(null);
  const [name, setName] = useState('');
  const [code, setCode] = useState('');
  const [codeTouched, setCodeTouched] = useState(false);
  const [preset, setPreset] = useState('_');
  const [library, setLibrary] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});

  useEffect(() => {
    api<{ presets: Preset[] }>('/api/anatomy/presets')
      .then((answer) => setPresets(answer.presets))
      // Without the list the built-in default still works: creation is not blocked.
      .catch(() => setPresets([{ name: '_', primary: true }]));
  }, [api]);

  const nameTaken = taken.some((t) => t.toLowerCase() === name.trim().toLowerCase());

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    setFieldErrors({});
    try {
      await api('/api/projects', {
        method: 'POST',
        body: { name: name.trim(), code: code.trim(), preset, library },
      });
      onCreated(name.trim());
    } catch (failure) {
      if (failure instanceof ApiError && failure.problems.length) {
        const byField: Record<string, string> = {};
        for (const problem of failure.problems) byField[String(problem.loc.at(-1))] ??= problem.msg;
        setFieldErrors(byField);
      }
      setError(describe(failure));
      setBusy(false);
    }
  };

  return (
    <form className="pwp-card pwp-create" onSubmit={submit} aria-label="New project">
      <h2>New project</h2>
      <div className="pwp-fields">
        <Field
          label="Name"
          hint={
            fieldErrors.name ??
            (nameTaken ? 'A project with this name exists already' : 'Letters, digits and _')
          }
          invalid={!!fieldErrors.name || nameTaken}
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
        <Field
          label="Code"
          hint={fieldErrors.code ?? 'Short, used in file names'}
          invalid={!!fieldErrors.code}
        >
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
        <Field
          label="Anatomy preset"
          hint="Statuses, folder and task types, tags and roots to start from"
          invalid={false}
        >
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
        <label className="pwp-check">
          <input type="checkbox" checked={library} onChange={(e) => setLibrary(e.target.checked)} />
          Library project (shared assets, not a production)
        </label>
      </div>
      {error && (
        <p className="pwp-error" role="alert">
          {error}
        </p>
      )}
      <div className="pwp-actions">
        <button type="submit" className="primary" disabled={busy || nameTaken}>
          {busy ? 'Creating the project…' : 'Create project'}
        </button>
        {onCancel && (
          <button type="button" onClick={onCancel} disabled={busy}>
            Cancel
          </button>
        )}
      </div>
    </form>
  );
}

/** A labelled form field with a hint below it; the hint turns into the error when the field is refused. */
function Field({
  label,
  hint,
  invalid,
  children,
}: {
  label: string;
  hint: string;
  invalid: boolean;
  children(props: { id: string; 'aria-describedby': string; 'aria-invalid': boolean }): ReactNode;
}) {
  const id = useId();
  return (
    <div className="pwp-field">
      <label htmlFor={id}>{label}</label>
      {children({ id, 'aria-describedby': `${id}-hint`, 'aria-invalid': invalid })}
      <small id={`${id}-hint`} className={invalid ? 'pwp-field-error' : 'pwp-muted'}>
        {hint}
      </small>
    </div>
  );
}
