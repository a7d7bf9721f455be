import { useState, type FormEvent } from 'react';
import { ErrorBox, Field, Options, useAction } from '@pipewright/sdk/ui';
import { ConditionsField, typedCondition, valueText, type ConditionDraft } from './ConditionsField';
import type { WebhookDraft } from './routes';

const ENTITY_TYPES = ['folder', 'task', 'product', 'version', 'representation', 'workfile'] as const;
const list = (text: string) =>
  text
    .split(/[\s,]+/)
    .map((item) => item.trim())
    .filter(Boolean);

export const EMPTY_DRAFT: WebhookDraft = {
  name: '',
  url: 'https://',
  projectName: null,
  topics: ['entity.*'],
  entityTypes: [],
  attributes: [],
  payload: 'thin',
  conditions: [],
  batchSize: 1,
};

/** What a webhook sends where: its target, its scope, the events it wants and how much of each. */
export function WebhookForm({
  initial,
  projects,
  studioWide,
  submitLabel,
  onSubmit,
  onCancel,
}: {
  initial: WebhookDraft;
  projects: string[];
  /** Whether the user may choose the whole studio (administrators). */
  studioWide: boolean;
  submitLabel: string;
  onSubmit(draft: WebhookDraft): Promise<unknown>;
  onCancel?(): void;
}) {
  const [draft, setDraft] = useState(initial);
  const [topics, setTopics] = useState(initial.topics.join(', '));
  const [attributes, setAttributes] = useState(initial.attributes.join(', '));
  const [conditions, setConditions] = useState<ConditionDraft[]>(
    initial.conditions.map((condition) => ({ ...condition, text: valueText(condition) })),
  );
  const action = useAction();
  const change = (patch: Partial<WebhookDraft>) => setDraft((current) => ({ ...current, ...patch }));
  const submit = (event: FormEvent) =>
    action.submit(() =>
      onSubmit({
        ...draft,
        topics: list(topics),
        attributes: list(attributes),
        conditions: conditions.map(({ path, op, text }) => typedCondition(path.trim(), op, text)),
      }),
    )(event);
  const toggleType = (type: (typeof ENTITY_TYPES)[number], on: boolean) =>
    change({ entityTypes: on ? [...draft.entityTypes, type] : draft.entityTypes.filter((t) => t !== type) });

  return (
    <form className="wh-form" onSubmit={submit} aria-label="Webhook">
      <Field label="Name">
        {(props) => (
          <input {...props} value={draft.name} onChange={(e) => change({ name: e.target.value })} />
        )}
      </Field>
      <Field label="Target URL" hint="Messages are posted here as JSON, signed as Standard Webhooks.">
        {(props) => <input {...props} value={draft.url} onChange={(e) => change({ url: e.target.value })} />}
      </Field>
      <Field label="Scope">
        {(props) => (
          <select
            {...props}
            value={draft.projectName ?? ''}
            onChange={(e) => change({ projectName: e.target.value || null })}
          >
            {studioWide && <option value="">The whole studio</option>}
            <Options items={projects} value={(name) => name} />
          </select>
        )}
      </Field>
      <Field
        label="Events"
        hint="Topics, separated by commas; * stands for anything: entity.task.status_changed, entity.*.attrib_changed"
      >
        {(props) => <input {...props} value={topics} onChange={(e) => setTopics(e.target.value)} />}
      </Field>
      <fieldset className="wh-types">
        <legend>Only these entity types (none: all)</legend>
        {ENTITY_TYPES.map((type) => (
          <label key={type}>
            <input
              type="checkbox"
              checked={draft.entityTypes.includes(type)}
              onChange={(e) => toggleType(type, e.target.checked)}
            />{' '}
            {type}
          </label>
        ))}
      </fieldset>
      <Field label="Only changes of these attributes" hint="For attribute changes; empty: every attribute.">
        {(props) => <input {...props} value={attributes} onChange={(e) => setAttributes(e.target.value)} />}
      </Field>
      <Field label="Payload">
        {(props) => (
          <select
            {...props}
            value={draft.payload}
            onChange={(e) => change({ payload: e.target.value as WebhookDraft['payload'] })}
          >
            <option value="thin">The event's summary</option>
            <option value="full">Everything, old and new values included</option>
          </select>
        )}
      </Field>
      <ConditionsField rows={conditions} onChange={setConditions} />
      <Field
        label="Batch size"
        hint="Events a request may carry. 1: each on its own; up to 50: what is due goes together, as {type: batch, data: [...]}."
      >
        {(props) => (
          <input
            {...props}
            type="number"
            min={1}
            max={50}
            value={draft.batchSize}
            onChange={(e) => change({ batchSize: Number(e.target.value) })}
          />
        )}
      </Field>
      <ErrorBox error={action.error} />
      <div className="wh-buttons">
        <button type="submit" className="pw-primary" disabled={action.busy}>
          {submitLabel}
        </button>
        {onCancel && (
          <button type="button" onClick={onCancel}>
            Cancel
          </button>
        )}
      </div>
    </form>
  );
}
