import type { Children } from '@kitajs/html';
import { escapeHtml } from '@kitajs/html';
import type { AppError } from '../../platform/errors.ts';
import type { Permission } from '../../platform/permissions.ts';
import { STYLESHEET_PATH } from './assets.ts';
import { formatTime, may, type Viewer } from './viewer.ts';

/**
 * The console's sections, in the order the masthead lists them. A section appears once its pages
 * exist (never a link to a 404); one that needs a permission to read only to its holders.
 */
const SECTIONS: readonly { key: Section; label: string; href: string; permission?: Permission }[] = [
  { key: 'home', label: 'Home', href: '/console' },
  { key: 'catalogue', label: 'Catalogue', href: '/console/courses' },
  { key: 'students', label: 'Students', href: '/console/students' },
  { key: 'certificates', label: 'Certificates', href: '/console/certificates' },
  { key: 'approvals', label: 'Approvals', href: '/console/approvals' },
  { key: 'documents', label: 'Documents', href: '/console/documents' },
  { key: 'reports', label: 'Reports', href: '/console/reports' },
  { key: 'staff', label: 'Staff', href: '/console/staff' },
  { key: 'operations', label: 'Operations', href: '/console/operations' },
  { key: 'audit', label: 'Audit', href: '/console/audit', permission: 'audit.read' },
  { key: 'settings', label: 'Settings', href: '/console/settings' },
];

export type Section =
  | 'home'
  | 'catalogue'
  | 'audit'
  | 'search'
  | 'staff'
  | 'operations'
  | 'settings'
  | 'approvals'
  | 'documents'
  | 'reports'
  | 'students'
  | 'certificates';

/**
 * A whole console page: a skip link, the masthead (the product, the search box, who is signed in
 * and sign-out), the sections, and the page's own content under its one h1. Without a viewer (a
 * refusal before the session is known) only the product's name and the content.
 */
export function Layout(props: { viewer?: Viewer | undefined; title: string; section?: Section; children?: Children }): JSX.Element {
  const { viewer } = props;
  return (
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title safe>{props.title} · Academy</title>
        <link rel="stylesheet" href="/console/assets/console.css" />
        <link rel="stylesheet" href={STYLESHEET_PATH} />
        <link rel="icon" href="/console/assets/favicon.svg" type="image/svg+xml" />
      </head>
      <body class="console">
        <a class="skip" href="#main">
          Skip to the content
        </a>
        <header class="masthead">
          <a class="brand" href="/console">
            Academy
          </a>
          {viewer ? (
            <search class="site-search">
              <form method="get" action="/console/search">
                <label class="visually-hidden" for="site-search">
                  Search the academy
                </label>
                <input
                  id="site-search"
                  type="search"
                  name="q"
                  value={escapeHtml(viewer.search ?? '')}
                  placeholder="Courses, students, sessions…"
                />
                <button type="submit" class="secondary">
                  Search
                </button>
              </form>
            </search>
          ) : (
            ''
          )}
          {viewer ? (
            <div class="who">
              <a href="/console/account">
                <span safe>{viewer.user.name}</span>
                <span class="visually-hidden">: your account</span>
              </a>
              <form method="post" action="/console/sign-out" class="inline">
                <Csrf token={viewer.csrf} />
                <button type="submit" class="secondary">
                  Sign out
                </button>
              </form>
            </div>
          ) : (
            ''
          )}
        </header>
        {viewer ? (
          <nav class="sections" aria-label="Sections">
            <ul>
              {SECTIONS.filter((section) => !section.permission || may(viewer, section.permission)).map((section) => (
                <li>
                  <a href={section.href} aria-current={section.key === props.section ? 'page' : undefined} safe>
                    {section.label}
                  </a>
                </li>
              ))}
            </ul>
          </nav>
        ) : (
          ''
        )}
        <main id="main" tabindex="-1">
          <h1 safe>{props.title}</h1>
          {props.children}
        </main>
      </body>
    </html>
  );
}

/** The hidden CSRF field every POST form carries. */
export function Csrf(props: { token: string }): JSX.Element {
  return <input type="hidden" name="_csrf" value={props.token} />;
}

/** A form of one button that posts `fields` to `action` (a workflow move). */
export function PostButton(props: {
  action: string;
  csrf: string;
  label: string;
  fields?: Record<string, string>;
  kind?: 'primary' | 'secondary';
}): JSX.Element {
  return (
    <form method="post" action={props.action} class="inline">
      <Csrf token={props.csrf} />
      {Object.entries(props.fields ?? {}).map(([name, value]) => (
        <input type="hidden" name={name} value={value} />
      ))}
      <button type="submit" class={props.kind ?? 'secondary'} safe>
        {props.label}
      </button>
    </form>
  );
}

/** An instant in the organization's time zone, with the instant itself for machines. */
export function Time(props: { iso: string | null; timeZone: string }): JSX.Element {
  if (props.iso === null) return <span>—</span>;
  return (
    <time datetime={props.iso} safe>
      {formatTime(props.iso, props.timeZone)}
    </time>
  );
}

/** The id of a form field's input, which the error summary links to. */
export const fieldId = (name: string) => `f-${name.replace(/[^A-Za-z0-9_-]/g, '-')}`;

/**
 * The list of a form's errors above it (GOV.UK's error summary): each message links to its field.
 * `order` gives the form's fields in their order; errors of other fields come last.
 */
export function ErrorSummary(props: { errors: Record<string, string>; order?: readonly string[] }): JSX.Element {
  const names = Object.keys(props.errors);
  if (names.length === 0) return '';
  const order = props.order ?? [];
  const sorted = [...order.filter((name) => names.includes(name)), ...names.filter((name) => !order.includes(name))];
  return (
    <div class="error-summary" role="alert" aria-labelledby="error-summary-title">
      <h2 id="error-summary-title">There is a problem</h2>
      <ul>
        {sorted.map((name) =>
          order.includes(name) ? (
            <li>
              <a href={`#${fieldId(name)}`} safe>
                {props.errors[name]}
              </a>
            </li>
          ) : (
            <li safe>{props.errors[name]}</li>
          ),
        )}
      </ul>
    </div>
  );
}

interface FieldProps {
  name: string;
  label: string;
  hint?: string | undefined;
  error?: string | undefined;
  value?: string | undefined;
  required?: boolean;
}

/** What a field's input is described by: its hint and its error, by id. */
function describedBy(props: FieldProps): string | undefined {
  const id = fieldId(props.name);
  const ids = [props.hint ? `${id}-hint` : '', props.error ? `${id}-error` : ''].filter(Boolean).join(' ');
  return ids || undefined;
}

/** A field's label, hint and error around its control. */
function Field(props: FieldProps & { children: Children }): JSX.Element {
  const id = fieldId(props.name);
  return (
    <div class="field">
      <label for={id} safe>
        {props.label}
      </label>
      {props.hint ? (
        <p class="hint" id={`${id}-hint`} safe>
          {props.hint}
        </p>
      ) : (
        ''
      )}
      {props.children}
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

/** A one-line input with its label; what was typed is shown again as it was typed. */
export function TextField(
  props: FieldProps & { type?: 'text' | 'search' | 'number' | 'date'; autocomplete?: string; inputmode?: string; spellcheck?: boolean },
): JSX.Element {
  return (
    <Field {...props}>
      <input
        id={fieldId(props.name)}
        name={props.name}
        type={props.type ?? 'text'}
        value={props.value === undefined ? undefined : escapeHtml(props.value)}
        autocomplete={props.autocomplete}
        inputmode={props.inputmode}
        spellcheck={props.spellcheck === undefined ? undefined : String(props.spellcheck)}
        required={props.required ?? false}
        aria-describedby={describedBy(props)}
        aria-invalid={props.error ? 'true' : undefined}
      />
    </Field>
  );
}

/** Text of several lines with its label. */
export function TextArea(props: FieldProps & { rows?: number }): JSX.Element {
  return (
    <Field {...props}>
      <textarea
        id={fieldId(props.name)}
        name={props.name}
        rows={String(props.rows ?? 5)}
        required={props.required ?? false}
        aria-describedby={describedBy(props)}
        aria-invalid={props.error ? 'true' : undefined}
        safe
      >
        {props.value ?? ''}
      </textarea>
    </Field>
  );
}

/** A choice of fixed options (value, label) with its label. */
export function Select(props: FieldProps & { options: readonly (readonly [string, string])[] }): JSX.Element {
  return (
    <Field {...props}>
      <select
        id={fieldId(props.name)}
        name={props.name}
        aria-describedby={describedBy(props)}
        aria-invalid={props.error ? 'true' : undefined}
      >
        {props.options.map(([value, label]) => (
          <option value={value} selected={value === (props.value ?? '')} safe>
            {label}
          </option>
        ))}
      </select>
    </Field>
  );
}

/**
 * A table that scrolls sideways on its own when it is wider than the screen (the page never does),
 * and can be scrolled with the keyboard.
 */
export function ScrollingTable(props: { label: string; children: Children }): JSX.Element {
  return (
    <section class="table-scroll" aria-label={props.label} tabindex="0">
      <table>{props.children}</table>
    </section>
  );
}

/**
 * Where a list is and the links to its neighbouring pages (`href` of a page number): "Showing 16–30
 * of 42", previous and next.
 */
export function Pagination(props: { page: number; perPage: number; total: number; href: (page: number) => string }): JSX.Element {
  const { page, perPage, total } = props;
  const last = Math.max(1, Math.ceil(total / perPage));
  const from = total === 0 ? 0 : Math.min((page - 1) * perPage + 1, total + 1);
  const to = Math.min(page * perPage, total);
  return (
    <nav class="pagination" aria-label="Pages">
      <ul>
        {page > 1 && (
          <li>
            <a href={props.href(Math.min(page - 1, last))} rel="prev">
              ← Previous page
            </a>
          </li>
        )}
        <li safe>{from > to ? `Page ${page} of ${last}: nothing here, ${total} in all` : `Showing ${from}–${to} of ${total}`}</li>
        {page < last && (
          <li>
            <a href={props.href(page + 1)} rel="next">
              Next page →
            </a>
          </li>
        )}
      </ul>
    </nav>
  );
}

const TITLES: Record<number, string> = {
  403: 'Not allowed',
  404: 'Not found',
  409: 'Not possible now',
  413: 'Too large',
  415: 'Not a form',
  422: 'Not valid',
  429: 'Too many requests',
};

/** A refusal as a page: what was refused and why, and a way on. */
export function ErrorPage(props: { viewer?: Viewer | undefined; error: AppError; back?: string }): JSX.Element {
  const { error } = props;
  const details = Object.values(error.details ?? {}).flat();
  return (
    <Layout viewer={props.viewer} title={TITLES[error.status] ?? 'Not possible'}>
      <p class="alert" role="alert" safe>
        {error.message}
      </p>
      {details.length > 0 && (
        <ul>
          {details.map((message) => (
            <li safe>{message}</li>
          ))}
        </ul>
      )}
      <p>
        {props.viewer ? (
          <a href={props.back ?? '/console'}>{props.back ? 'Go back' : 'Go to the console’s home'}</a>
        ) : (
          <a href="/console/sign-in">Sign in</a>
        )}
      </p>
    </Layout>
  );
}
