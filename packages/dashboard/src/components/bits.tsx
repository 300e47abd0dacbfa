import { cloneElement, useId, type ReactElement } from 'react';

export function ErrorNote({ error }: { error: string | null | undefined }) {
  return error ? (
    <p role="alert" className="error">
      {error}
    </p>
  ) : null;
}

export function AdminOnly({ what }: { what: string }) {
  return <p className="note">{what} are for the admin: sign in with the admin key to see them.</p>;
}

/** Pages of the public API need an account key; an admin can pick one (e.g. a key just created on Keys). */
export function NeedsCallKey() {
  return (
    <p className="note">
      This page calls the public API, which needs an account&apos;s API key: create one on Keys and choose &quot;Use this key for Tasks and
      Playground&quot;.
    </p>
  );
}

/**
 * A labelled control. The label names the control by `for`/`id`, not by wrapping it: a wrapped `<select>` would add
 * its options' text to its own accessible name.
 */
export function Field(props: { label: string; children: ReactElement<{ id?: string }> }) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>{props.label}</label>
      {cloneElement(props.children, { id })}
    </div>
  );
}

/** An edit form's buttons: submit under its own label, or cancel. */
export function SaveOrCancel({ save, onCancel }: { save: string; onCancel: () => void }) {
  return (
    <div className="actions">
      <button type="submit">{save}</button>
      <button type="button" onClick={onCancel}>
        Cancel
      </button>
    </div>
  );
}

export const time = (unix: number | null | undefined) => (unix ? new Date(unix * 1000).toLocaleString() : '—');
export const num = (v: number | null | undefined, digits = 0) => (v === null || v === undefined ? '—' : v.toFixed(digits));

/** A model picker; the first model is the default until one is chosen. */
export function ModelSelect(props: { label: string; models: string[]; value: string; onChange: (v: string) => void }) {
  return (
    <Field label={props.label}>
      <select value={props.value || props.models[0] || ''} onChange={(e) => props.onChange(e.target.value)}>
        {props.models.map((m) => (
          <option key={m}>{m}</option>
        ))}
      </select>
    </Field>
  );
}
