import { escapeHtml } from '@kitajs/html';
import type { ValidationError } from '../../platform/errors.ts';
import { firstErrors } from '../staff-auth/pages.ts';
import { fieldId } from './layout.tsx';
import { isLocalTime } from './local-time.ts';

/**
 * A date and time on the organization's wall clock (a `datetime-local` input), with its label, hint
 * and error as the layout's fields have them. The zone is named in the hint.
 */
export function DateTimeField(props: {
  name: string;
  label: string;
  hint: string;
  value?: string | undefined;
  error?: string | undefined;
}): JSX.Element {
  const id = fieldId(props.name);
  const described = [`${id}-hint`, props.error ? `${id}-error` : ''].filter(Boolean).join(' ');
  return (
    <div class="field">
      <label for={id} safe>
        {props.label}
      </label>
      <p class="hint" id={`${id}-hint`} safe>
        {props.hint}
      </p>
      <input
        id={id}
        name={props.name}
        type="datetime-local"
        value={props.value === undefined ? undefined : escapeHtml(props.value)}
        aria-describedby={described}
        aria-invalid={props.error ? 'true' : undefined}
      />
      {props.error ? (
        <p class="error" id={`${id}-error`}>
          <span class="visually-hidden">Error: </span>
          <span safe>{props.error}</span>
        </p>
      ) : (
        ''
      )}
    </div>
  );
}

/** A notice of what the last action did (the page after a POST-redirect-GET). */
export function Notice(props: { text: string | undefined }): JSX.Element {
  if (!props.text) return '';
  return (
    <p class="notice" role="status" safe>
      {props.text}
    </p>
  );
}

/**
 * The messages of a form that did not validate, one a field; a time field whose text was not read
 * as a wall-clock time says so in the form's words rather than in RFC 3339's.
 */
export function formErrors(error: ValidationError, typed: Record<string, string | undefined>, timeFields: readonly string[] = []) {
  const errors = firstErrors(error);
  for (const name of timeFields) {
    if (errors[name] && typed[name]?.trim() && !isLocalTime(typed[name])) {
      errors[name] = `The ${name} field must be a date and a time, e.g. 2027-01-04 09:00.`;
    }
  }
  return errors;
}

/** `yes`/`no` of a form's choice as the schema's boolean; anything else as typed, for the schema to refuse. */
export function booleanOf(text: string | undefined): boolean | string | undefined {
  if (text === undefined || text === '') return undefined;
  return text === 'yes' ? true : text === 'no' ? false : text;
}
