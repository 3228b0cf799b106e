import { escapeHtml } from '@kitajs/html';
import { NotFoundError } from '../../platform/errors.ts';
import { fieldId } from './layout.tsx';

/**
 * Pieces the administration's pages share (staff, operations, settings, home): ids from paths,
 * notices, groups of checkboxes and the secret a POST's answer shows once.
 */

const MAX_ID = 2_147_483_647;

/** A record's id from a path, or the 404 of a malformed one (as the API answers). */
export function idOf(value: string): number {
  if (!/^[1-9][0-9]{0,9}$/.test(value) || Number(value) > MAX_ID) throw new NotFoundError();
  return Number(value);
}

/**
 * What a page says after the POST that led to it (POST-redirect-GET): the query names a notice
 * (`?notice=granted`), the page words it; text from the URL is never shown.
 */
export function noticeOf(query: unknown, notices: Record<string, string>): string | undefined {
  const notice = (query as { notice?: unknown } | undefined)?.notice;
  return typeof notice === 'string' && Object.hasOwn(notices, notice) ? notices[notice] : undefined;
}

/** The notice of a page, when there is one. */
export function Notice(props: { text: string | undefined }): JSX.Element {
  if (!props.text) return '';
  return (
    <p class="notice" role="status" safe>
      {props.text}
    </p>
  );
}

/**
 * The names checked in a group of checkboxes named `prefix:value` (a form's fields are read once
 * each, so every box has a name of its own).
 */
export function checkedOf(form: Record<string, string>, prefix: string): string[] {
  return Object.keys(form)
    .filter((name) => name.startsWith(`${prefix}:`))
    .map((name) => name.slice(prefix.length + 1));
}

/** A form's errors with those of a list's items (`roles.0`) under the list's name (`roles`), the first of each. */
export function foldItemErrors(errors: Record<string, string>): Record<string, string> {
  const folded: Record<string, string> = {};
  for (const [name, message] of Object.entries(errors)) folded[name.replace(/\.[0-9]+$/, '')] ??= message;
  return folded;
}

/** A group of checkboxes under its legend, one for each option (value, label, hint). */
export function CheckboxGroup(props: {
  name: string;
  legend: string;
  hint?: string;
  options: readonly (readonly [string, string, string?])[];
  checked: readonly string[];
  error?: string | undefined;
  disabled?: boolean;
}): JSX.Element {
  const id = fieldId(props.name);
  const described = [props.hint ? `${id}-hint` : '', props.error ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined;
  return (
    <fieldset class="field" id={id} aria-describedby={described} tabindex="-1">
      <legend safe>{props.legend}</legend>
      {props.hint ? (
        <p class="hint" id={`${id}-hint`} safe>
          {props.hint}
        </p>
      ) : (
        ''
      )}
      {props.error ? (
        <p class="error" id={`${id}-error`}>
          <span class="visually-hidden">Error: </span>
          <span safe>{props.error}</span>
        </p>
      ) : (
        ''
      )}
      {props.options.map(([value, label, hint]) => (
        <div class="checkbox">
          <label>
            <input
              type="checkbox"
              name={`${props.name}:${value}`}
              value="on"
              checked={props.checked.includes(value)}
              disabled={props.disabled ?? false}
            />{' '}
            <span safe>{label}</span>
            {hint ? (
              <span class="hint" safe>
                {` — ${hint}`}
              </span>
            ) : (
              ''
            )}
          </label>
        </div>
      ))}
    </fieldset>
  );
}

/**
 * A secret shown once, on the answer to the POST that made it (never after a redirect, never
 * again): in a read-only field, to be copied.
 */
export function SecretOnce(props: { label: string; value: string; hint: string }): JSX.Element {
  return (
    <div class="field">
      <label for="f-secret" safe>
        {props.label}
      </label>
      <p class="hint" id="f-secret-hint" safe>
        {props.hint}
      </p>
      <input
        id="f-secret"
        type="text"
        readonly
        value={escapeHtml(props.value)}
        aria-describedby="f-secret-hint"
        autocomplete="off"
        spellcheck="false"
      />
    </div>
  );
}

/** A small navigation between the pages of one section (the operations' tasks, messages, webhooks…). */
export function SubNav(props: { label: string; current: string; links: readonly (readonly [string, string])[] }): JSX.Element {
  return (
    <nav aria-label={props.label}>
      <ul>
        {props.links.map(([href, text]) => (
          <li>
            <a href={href} aria-current={href === props.current ? 'page' : undefined} safe>
              {text}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}
