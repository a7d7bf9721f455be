import { useEffect, useMemo, useState } from 'react';
import {
  ConfirmButton,
  ErrorBox,
  messageOf,
  Options,
  problemsOf,
  Saved,
  useClient,
  useLoaded,
} from '@pipewright/sdk/ui';
import { sortedVersions } from './AddonsTab';
import {
  readOverrides,
  readSettings,
  readSettingsSchema,
  removeAllOverrides,
  removeOverride,
  saveSettings,
  type AddonItem,
} from './routes';
import { SchemaForm, type FormContext } from './SchemaForm';

type Json = Record<string, unknown>;
export interface SettingsTarget {
  addon: string;
  version: string;
}

const VARIANTS = ['production', 'staging'] as const;

/** Pick an addon version and variant, then edit its studio settings in a form made from its schema. */
export function SettingsTab({
  addons,
  target,
  onTarget,
}: {
  addons: AddonItem[];
  target: SettingsTarget | null;
  onTarget(target: SettingsTarget): void;
}) {
  const [variant, setVariant] = useState<string>('production');
  const withSettings = addons.filter((addon) =>
    Object.values(addon.versions).some((info) => info.hasSettings && !info.isBroken),
  );
  const usableVersions = (addon: AddonItem) =>
    sortedVersions(addon).filter((v) => addon.versions[v]!.hasSettings && !addon.versions[v]!.isBroken);
  const chosen = withSettings.find((addon) => addon.name === target?.addon);

  useEffect(() => {
    if (target || withSettings.length === 0) return;
    const first = withSettings[0]!;
    onTarget({ addon: first.name, version: first.productionVersion ?? usableVersions(first)[0]! });
  });

  if (withSettings.length === 0)
    return (
      <p className="notice">
        No installed addon has settings. Addons that declare a settings schema appear here.
      </p>
    );
  return (
    <div className="pw-stack">
      <div className="pw-row">
        <label className="pw-field">
          Addon
          <select
            aria-label="Addon"
            value={target?.addon ?? ''}
            onChange={(e) => {
              const addon = withSettings.find((a) => a.name === e.target.value)!;
              onTarget({ addon: addon.name, version: addon.productionVersion ?? usableVersions(addon)[0]! });
            }}
          >
            <Options items={withSettings} value={(addon) => addon.name} label={(addon) => addon.title} />
          </select>
        </label>
        <label className="pw-field">
          Version
          <select
            aria-label="Version"
            value={target?.version ?? ''}
            onChange={(e) => target && onTarget({ addon: target.addon, version: e.target.value })}
          >
            {chosen &&
              usableVersions(chosen).map((version) => (
                <option key={version} value={version}>
                  {version}
                  {version === chosen.productionVersion ? ' (production)' : ''}
                </option>
              ))}
          </select>
        </label>
        <label className="pw-field">
          Variant
          <select aria-label="Variant" value={variant} onChange={(e) => setVariant(e.target.value)}>
            <Options items={VARIANTS} value={(v) => v} />
          </select>
        </label>
      </div>
      {target && (
        <SettingsEditor
          key={`${target.addon}@${target.version}/${variant}`}
          addon={target.addon}
          version={target.version}
          variant={variant}
        />
      )}
    </div>
  );
}

/** 422 problems by field path; the settings' own path, without the request part ("body"). */
function problemsByField(error: unknown): Map<string, string[]> {
  const map = new Map<string, string[]>();
  for (const problem of problemsOf(error)) {
    const loc = problem.loc[0] === 'body' ? problem.loc.slice(1) : problem.loc;
    const key = loc.join('/');
    map.set(key, [...(map.get(key) ?? []), problem.msg]);
  }
  return map;
}

function SettingsEditor({ addon, version, variant }: { addon: string; version: string; variant: string }) {
  const client = useClient();
  const loaded = useLoaded(
    () =>
      Promise.all([
        readSettingsSchema(client, addon, version),
        readSettings(client, addon, version, variant),
        readOverrides(client, addon, version, variant),
      ]),
    [client, addon, version, variant],
  );
  const [draft, setDraft] = useState<Json | null>(null);
  const [problems, setProblems] = useState<Map<string, string[]>>(new Map());
  const [error, setError] = useState<unknown>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [schema, values, overrides] = loaded.data ?? [null, null, null];
  const reload = loaded.reload;
  useEffect(() => setDraft(values), [values]);

  const context = useMemo<FormContext>(
    () => ({
      // List items are reported at the default level; only real studio overrides are marked.
      overrides: new Map(
        Object.values(overrides ?? {})
          .filter((entry) => entry.level === 'studio')
          .map((entry) => [entry.path.join('/'), entry]),
      ),
      problems,
      saved: values ?? {},
      onReset: (path) => {
        setError(null);
        removeOverride(client, addon, version, variant, path)
          .then(() => {
            setSaved(`${path.join(' › ')} is back to its default.`);
            reload();
          })
          .catch(setError);
      },
    }),
    [overrides, problems, values, client, addon, version, variant, reload],
  );

  const save = async () => {
    if (!draft) return;
    setBusy(true);
    setError(null);
    setSaved(null);
    setProblems(new Map());
    try {
      await saveSettings(client, addon, version, variant, draft);
      setSaved('Settings saved. Values that differ from the defaults are stored as studio overrides.');
      loaded.reload();
    } catch (failure) {
      if (problemsOf(failure).length > 0) {
        setProblems(problemsByField(failure));
        setError('The settings were not saved: fix the fields marked below.');
      } else setError(messageOf(failure));
    } finally {
      setBusy(false);
    }
  };

  const dirty = draft !== null && JSON.stringify(draft) !== JSON.stringify(values);
  return (
    <section className="pw-panel" aria-label={`Settings of ${addon} ${version}`}>
      <header className="pw-row">
        <h2 className="pw-grow">
          {titleOf(schema?.title ?? addon, version)} <span className="muted">({variant})</span>
        </h2>
        <ConfirmButton
          label="Reset all to defaults"
          confirmLabel="Remove every override"
          disabled={!overrides || Object.keys(overrides).length === 0}
          onConfirm={() => {
            removeAllOverrides(client, addon, version, variant)
              .then(() => {
                setSaved('Every override is removed: the defaults apply.');
                loaded.reload();
              })
              .catch(setError);
          }}
        />
      </header>
      <ErrorBox error={loaded.error} />
      {schema && draft && <SchemaForm schema={schema} value={draft} onChange={setDraft} context={context} />}
      <ErrorBox error={error} />
      <Saved message={saved} />
      <div className="pw-row">
        <button type="button" className="primary" disabled={!dirty || busy} onClick={save}>
          {busy ? 'Saving…' : 'Save settings'}
        </button>
        <button type="button" disabled={!dirty || busy} onClick={() => setDraft(values)}>
          Discard changes
        </button>
      </div>
    </section>
  );
}

/** "Blender 1.1.8": AYON packages' schemas carry the version in their title already. */
function titleOf(title: string, version: string): string {
  return title.endsWith(` ${version}`) ? title : `${title} ${version}`;
}
