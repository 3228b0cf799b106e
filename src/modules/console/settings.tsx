import type { FastifyInstance } from 'fastify';
import { PreconditionFailedError, ValidationError } from '../../platform/errors.ts';
import { requirePermission } from '../../platform/permissions.ts';
import { validateInput } from '../../platform/validation.ts';
import { type Organization, OrganizationPatch } from '../organization/schemas.ts';
import type { OrganizationService } from '../organization/service.ts';
import { firstErrors } from '../staff-auth/pages.ts';
import { formOf } from '../staff-auth/web.ts';
import { Notice, noticeOf } from './admin-parts.tsx';
import { PAGE, seeOther, sendPage, viewerOf } from './guard.ts';
import { ErrorSummary, Layout, Select, TextField, Time } from './layout.tsx';
import { may, type Viewer } from './viewer.ts';

export interface SettingsDeps {
  organization: OrganizationService;
}

const PATH = '/console/settings';

/** The form's fields, in its order: the PATCH's, the address's as `address.<field>`. */
const FIELDS = [
  'name',
  'legal_name',
  'timezone',
  'locale',
  'currency',
  'contact_email',
  'phone',
  'website',
  'address.line1',
  'address.line2',
  'address.city',
  'address.region',
  'address.postal_code',
  'address.country',
] as const;
type Field = (typeof FIELDS)[number];
type SettingsForm = Record<Field, string>;

/** Fields that must have a value; the others are cleared (null) when left empty. */
const REQUIRED = new Set<Field>(['name', 'timezone', 'locale', 'currency']);

const NOTICES: Record<string, string> = {
  saved: 'The settings are saved.',
  unchanged: 'Nothing was changed.',
};

const TIME_ZONES = [...new Set(['UTC', ...Intl.supportedValuesOf('timeZone')])];

function formOfSettings(organization: Organization): SettingsForm {
  const address = organization.address as Record<string, string | null>;
  return Object.fromEntries(
    FIELDS.map((field) => {
      const value = field.startsWith('address.')
        ? address[field.slice('address.'.length)]
        : (organization as unknown as Record<string, string | null>)[field];
      return [field, value ?? ''];
    }),
  ) as SettingsForm;
}

/** What a field holds as the PATCH names it: the text as typed, or null for an optional field left empty. */
const patchValue = (form: SettingsForm, field: Field): string | null =>
  form[field].trim() === '' && !REQUIRED.has(field) ? null : form[field];

/** The PATCH of the fields whose value differs from the current settings (the API's partial update). */
function patchOf(form: SettingsForm, current: SettingsForm): Record<string, unknown> {
  const patch: Record<string, unknown> = {};
  const address: Record<string, unknown> = {};
  for (const field of FIELDS) {
    const value = patchValue(form, field);
    if (value === patchValue(current, field)) continue;
    if (field.startsWith('address.')) address[field.slice('address.'.length)] = value;
    else patch[field] = value;
  }
  if (Object.keys(address).length) patch.address = address;
  return patch;
}

/**
 * The organization's settings (issue 41, "Organization settings"): a form of the API's PATCH
 * /organization, checked by its schema, saved by its service (`operations.manage`). The form carries
 * the version it was shown at (its last change); saved over a newer one it is a 412, shown with the
 * settings as they are now, as If-Match is over the API.
 */
export function settingsPages(app: FastifyInstance, deps: SettingsDeps): void {
  app.get(PATH, { config: { access: PAGE }, schema: { hide: true } }, async (request, reply) => {
    const viewer = viewerOf(request);
    const organization = await deps.organization.get(viewer.ctx);
    return sendPage(
      reply,
      200,
      <SettingsPage
        viewer={viewer}
        organization={organization}
        form={formOfSettings(organization)}
        notice={noticeOf(request.query, NOTICES)}
      />,
    );
  });

  app.post(PATH, { config: { access: PAGE }, schema: { hide: true } }, async (request, reply) => {
    const viewer = viewerOf(request);
    viewer.back = PATH;
    requirePermission(viewer.ctx, 'operations.manage');
    const fields = formOf(request);
    const form = Object.fromEntries(FIELDS.map((field) => [field, fields[field] ?? ''])) as SettingsForm;
    const version = fields.version ?? '';
    const organization = await deps.organization.get(viewer.ctx);
    const patch = patchOf(form, formOfSettings(organization));
    if (Object.keys(patch).length === 0) return seeOther(reply, `${PATH}?notice=unchanged`);
    try {
      // The API's schema of PATCH /organization: the same rules and messages.
      const input = validateInput(OrganizationPatch, patch, 'data');
      await deps.organization.update(viewer.ctx, input, (current) => {
        if (current.updated_at !== version) throw new PreconditionFailedError();
      });
    } catch (error) {
      if (error instanceof PreconditionFailedError) {
        const now = await deps.organization.get(viewer.ctx);
        return sendPage(reply, 412, <SettingsPage viewer={viewer} organization={now} form={formOfSettings(now)} changedMeanwhile />);
      }
      if (!(error instanceof ValidationError)) throw error;
      return sendPage(
        reply,
        422,
        <SettingsPage viewer={viewer} organization={{ ...organization, updated_at: version }} form={form} errors={firstErrors(error)} />,
      );
    }
    return seeOther(reply, `${PATH}?notice=saved`);
  });
}

function SettingsPage(props: {
  viewer: Viewer;
  organization: Organization;
  form: SettingsForm;
  notice?: string | undefined;
  errors?: Record<string, string>;
  changedMeanwhile?: boolean;
}): JSX.Element {
  const { viewer, form } = props;
  const errors = props.errors ?? {};
  const manage = may(viewer, 'operations.manage');
  const zones = TIME_ZONES.includes(form.timezone) ? TIME_ZONES : [form.timezone, ...TIME_ZONES];
  const title = props.changedMeanwhile ? 'Settings (changed meanwhile)' : Object.keys(errors).length ? 'Settings (not saved)' : 'Settings';
  const text = (field: Field, label: string, hint?: string, extra: { autocomplete?: string; spellcheck?: boolean } = {}) => (
    <TextField
      name={field}
      label={REQUIRED.has(field) || !manage ? label : `${label} (optional)`}
      hint={hint}
      value={form[field]}
      error={errors[field]}
      required={REQUIRED.has(field)}
      {...extra}
    />
  );
  return (
    <Layout viewer={viewer} title={title} section="settings">
      <Notice text={props.notice} />
      {props.changedMeanwhile ? (
        <p class="alert" role="alert">
          Someone changed the settings while you were editing them: nothing was saved. Here they are as they are now; make your change
          again.
        </p>
      ) : (
        ''
      )}
      <ErrorSummary errors={errors} order={FIELDS} />
      <p>
        <span>
          The organization’s settings: its name, and the time zone every time in the console and the schedules is read in. Last changed{' '}
        </span>
        <Time iso={props.organization.updated_at} timeZone={viewer.timeZone} />.
      </p>
      {manage ? '' : <p class="notice">Changing the settings needs the operations.manage permission, which you do not hold.</p>}
      <form method="post" action={PATH} novalidate>
        <input type="hidden" name="_csrf" value={viewer.csrf} />
        <input type="hidden" name="version" value={props.organization.updated_at} />
        <fieldset disabled={!manage}>
          <legend class="visually-hidden">The organization</legend>
          {text('name', 'Name')}
          {text('legal_name', 'Legal name')}
          <Select
            name="timezone"
            label="Time zone"
            hint="Times are shown, and scheduled tasks run, in this zone."
            value={form.timezone}
            error={errors.timezone}
            options={zones.map((zone) => [zone, zone.replace(/_/g, ' ')] as const)}
          />
          {text('locale', 'Language', 'A BCP 47 tag, e.g. en-GB.', { autocomplete: 'off' })}
          {text('currency', 'Currency', 'The default for new courses: an ISO 4217 code, e.g. EUR.', { autocomplete: 'off' })}
          {text('contact_email', 'Contact email', undefined, { autocomplete: 'off', spellcheck: false })}
          {text('phone', 'Phone')}
          {text('website', 'Website', 'An http or https address.', { autocomplete: 'off', spellcheck: false })}
        </fieldset>
        <fieldset disabled={!manage}>
          <legend>Address</legend>
          {text('address.line1', 'Street and number')}
          {text('address.line2', 'Address line 2')}
          {text('address.city', 'City')}
          {text('address.region', 'Region')}
          {text('address.postal_code', 'Postal code')}
          {text('address.country', 'Country', 'Its ISO 3166-1 code in capitals, e.g. DE.', { autocomplete: 'off' })}
        </fieldset>
        {manage ? (
          <div class="actions">
            <button type="submit" class="primary">
              Save the settings
            </button>
          </div>
        ) : (
          ''
        )}
      </form>
    </Layout>
  );
}
