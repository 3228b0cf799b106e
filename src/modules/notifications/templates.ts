import { escapeHtml } from '../../platform/html.ts';
import type { NotificationType } from './schemas.ts';

/**
 * The identity emails, in the organization's name and language. Texts exist in English and German;
 * any other locale gets English (with dates still formatted the locale's way). Each email has a plain
 * text part and an HTML part saying the same.
 */

export interface MailContext {
  organization: { name: string; contactEmail: string | null; timezone: string };
  /** BCP 47 tag: the language of the text and the format of dates. */
  locale: string;
  user: { name: string };
  /** For an invitation or a password reset: the one-time link and when it stops working. */
  link?: { url: string; expiresAt: Date };
}

export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
}

interface Texts {
  subject: (org: string) => string;
  greeting: (name: string) => string;
  /** The paragraphs of the email. */
  body: (org: string) => string[];
  action?: string;
  /** Below the link of an invitation or a reset. */
  expiry?: (date: string) => string;
  contact: (address: string) => string;
}

type Language = 'en' | 'de';

const TEXTS: Record<Language, Record<NotificationType, Texts>> = {
  en: {
    invitation: {
      subject: (org) => `You are invited to join ${org}`,
      greeting: (name) => `Hello ${name},`,
      body: (org) => [`${org} has invited you to its training administration. Accept the invitation to activate your account.`],
      action: 'Accept the invitation',
      expiry: (date) => `The link works once and until ${date}. If you did not expect this invitation, you can ignore this email.`,
      contact: (address) => `Questions? Write to ${address}.`,
    },
    activation: {
      subject: (org) => `Your ${org} account is active`,
      greeting: (name) => `Hello ${name},`,
      body: (org) => [`Your account at ${org} is now active. Welcome aboard.`],
      contact: (address) => `Questions? Write to ${address}.`,
    },
    suspension: {
      subject: (org) => `Your ${org} account has been suspended`,
      greeting: (name) => `Hello ${name},`,
      body: (org) => [`Your account at ${org} has been suspended. You cannot use it until it is reactivated.`],
      contact: (address) => `If you think this is a mistake, write to ${address}.`,
    },
    reactivation: {
      subject: (org) => `Your ${org} account has been reactivated`,
      greeting: (name) => `Hello ${name},`,
      body: (org) => [`Your account at ${org} has been reactivated. You can use it again.`],
      contact: (address) => `Questions? Write to ${address}.`,
    },
    archival: {
      subject: (org) => `Your ${org} account has been closed`,
      greeting: (name) => `Hello ${name},`,
      body: (org) => [`Your account at ${org} has been closed and archived. It cannot be used any more.`],
      contact: (address) => `If you think this is a mistake, write to ${address}.`,
    },
    password_reset: {
      subject: (org) => `Set a new password for ${org}`,
      greeting: (name) => `Hello ${name},`,
      body: (org) => [`Someone asked to set a new password for your account at ${org}. Using the link signs you out everywhere else.`],
      action: 'Set a new password',
      expiry: (date) =>
        `The link works once and until ${date}. If you did not ask for it, ignore this email: your password stays as it is.`,
      contact: (address) => `Questions? Write to ${address}.`,
    },
  },
  de: {
    invitation: {
      subject: (org) => `Einladung zu ${org}`,
      greeting: (name) => `Hallo ${name},`,
      body: (org) => [`${org} hat Sie zur Schulungsverwaltung eingeladen. Nehmen Sie die Einladung an, um Ihr Konto zu aktivieren.`],
      action: 'Einladung annehmen',
      expiry: (date) =>
        `Der Link ist einmal und bis ${date} gültig. Falls Sie diese Einladung nicht erwartet haben, können Sie diese E-Mail ignorieren.`,
      contact: (address) => `Fragen? Schreiben Sie an ${address}.`,
    },
    activation: {
      subject: (org) => `Ihr Konto bei ${org} ist aktiv`,
      greeting: (name) => `Hallo ${name},`,
      body: (org) => [`Ihr Konto bei ${org} ist jetzt aktiv. Willkommen!`],
      contact: (address) => `Fragen? Schreiben Sie an ${address}.`,
    },
    suspension: {
      subject: (org) => `Ihr Konto bei ${org} wurde gesperrt`,
      greeting: (name) => `Hallo ${name},`,
      body: (org) => [`Ihr Konto bei ${org} wurde gesperrt. Bis zur Reaktivierung können Sie es nicht nutzen.`],
      contact: (address) => `Falls das ein Irrtum ist, schreiben Sie an ${address}.`,
    },
    reactivation: {
      subject: (org) => `Ihr Konto bei ${org} wurde reaktiviert`,
      greeting: (name) => `Hallo ${name},`,
      body: (org) => [`Ihr Konto bei ${org} wurde reaktiviert. Sie können es wieder nutzen.`],
      contact: (address) => `Fragen? Schreiben Sie an ${address}.`,
    },
    archival: {
      subject: (org) => `Ihr Konto bei ${org} wurde geschlossen`,
      greeting: (name) => `Hallo ${name},`,
      body: (org) => [`Ihr Konto bei ${org} wurde geschlossen und archiviert. Es kann nicht mehr genutzt werden.`],
      contact: (address) => `Falls das ein Irrtum ist, schreiben Sie an ${address}.`,
    },
    password_reset: {
      subject: (org) => `Neues Passwort für ${org}`,
      greeting: (name) => `Hallo ${name},`,
      body: (org) => [
        `Jemand hat ein neues Passwort für Ihr Konto bei ${org} angefordert. Mit dem Link werden Sie überall sonst abgemeldet.`,
      ],
      action: 'Neues Passwort festlegen',
      expiry: (date) =>
        `Der Link ist einmal und bis ${date} gültig. Falls Sie das nicht angefordert haben, ignorieren Sie diese E-Mail: Ihr Passwort bleibt, wie es ist.`,
      contact: (address) => `Fragen? Schreiben Sie an ${address}.`,
    },
  },
};

function language(locale: string): Language {
  try {
    const tag = new Intl.Locale(locale).language;
    return tag === 'de' ? 'de' : 'en';
  } catch {
    return 'en';
  }
}

/** A locale Intl can format with; a tag it does not know falls back to English. */
function formatLocale(locale: string): string {
  try {
    return Intl.DateTimeFormat.supportedLocalesOf([locale]).length > 0 ? locale : 'en';
  } catch {
    return 'en';
  }
}

/** Names and subjects are one line in headers and text: control characters are dropped. */
function oneLine(text: string): string {
  return text.replace(/\p{Cc}+/gu, ' ').trim();
}

/** The subject alone, as recorded when the notification is created. */
export function renderSubject(type: NotificationType, locale: string, organizationName: string): string {
  return oneLine(TEXTS[language(locale)][type].subject(oneLine(organizationName)));
}

export function renderMail(type: NotificationType, context: MailContext): RenderedMail {
  const texts = TEXTS[language(context.locale)][type];
  const org = oneLine(context.organization.name);
  const subject = renderSubject(type, context.locale, org);
  const paragraphs = texts.body(org);
  const contact = context.organization.contactEmail ? texts.contact(context.organization.contactEmail) : null;
  const invitation = context.link;
  const expiry =
    invitation && texts.expiry
      ? texts.expiry(
          new Intl.DateTimeFormat(formatLocale(context.locale), {
            year: 'numeric',
            month: 'long',
            day: 'numeric',
            hour: '2-digit',
            minute: '2-digit',
            timeZone: context.organization.timezone,
            timeZoneName: 'short',
          }).format(invitation.expiresAt),
        )
      : null;
  const greeting = texts.greeting(oneLine(context.user.name));

  const text = [
    greeting,
    '',
    ...paragraphs.flatMap((p) => [p, '']),
    ...(invitation ? [`${texts.action}:`, invitation.url, '', ...(expiry ? [expiry, ''] : [])] : []),
    ...(contact ? [contact, ''] : []),
    '-- ',
    org,
    '',
  ].join('\n');

  const p = (content: string) => `<p style="margin:0 0 16px">${content}</p>`;
  const button = invitation
    ? `<p style="margin:24px 0"><a href="${escapeHtml(invitation.url)}" style="background:#1f5fbf;color:#ffffff;` +
      `padding:12px 20px;border-radius:4px;text-decoration:none;display:inline-block">${escapeHtml(texts.action ?? '')}</a></p>` +
      p(`<span style="font-size:13px;color:#555555">${escapeHtml(invitation.url)}</span>`) +
      (expiry ? p(escapeHtml(expiry)) : '')
    : '';
  const html = [
    '<!doctype html>',
    `<html lang="${escapeHtml(language(context.locale))}">`,
    `<head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${escapeHtml(subject)}</title></head>`,
    '<body style="margin:0;padding:24px;background:#f4f5f7;font-family:Arial,Helvetica,sans-serif;font-size:15px;line-height:1.5;color:#1d1d1f">',
    '<div style="max-width:560px;margin:0 auto;background:#ffffff;padding:32px;border-radius:6px">',
    p(escapeHtml(greeting)),
    ...paragraphs.map((paragraph) => p(escapeHtml(paragraph))),
    button,
    contact ? p(escapeHtml(contact)) : '',
    `<p style="margin:24px 0 0;color:#555555">${escapeHtml(org)}</p>`,
    '</div>',
    '</body>',
    '</html>',
  ].join('\n');

  return { subject, text, html };
}
