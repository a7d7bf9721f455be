import type { InputHTMLAttributes } from 'react';

/** A labelled text input of the shell's own forms (login, onboarding, password reset); other props go to the input. */
export function Field({
  label,
  value,
  onChange,
  ...input
}: { label: string; value: string; onChange(value: string): void } & Omit<
  InputHTMLAttributes<HTMLInputElement>,
  'value' | 'onChange'
>) {
  return (
    <label>
      {label}
      <input {...input} value={value} onChange={(e) => onChange(e.target.value)} />
    </label>
  );
}
