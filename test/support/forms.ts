import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';

/**
 * A browser's part in the console's forms, over `inject`: it keeps the cookies the server sets
 * (the CSRF cookie, the session) and sends them back, and fills a form's `_csrf` from the page that
 * shows it. Each client has an address of its own (the sign-in forms are limited per address).
 */
export function formClient(
  http: FastifyInstance,
  address = `10.9.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250) + 1}`,
) {
  const jar = new Map<string, string>();

  function keep(res: LightMyRequestResponse): void {
    const set = res.headers['set-cookie'];
    for (const line of [set ?? []].flat()) {
      const [pair = '', ...attributes] = line.split(';');
      const [name = '', ...rest] = pair.split('=');
      const value = rest.join('=');
      if (attributes.some((a) => /^\s*max-age=0\s*$/i.test(a)) || value === '') jar.delete(name.trim());
      else jar.set(name.trim(), value);
    }
  }

  /** `from`: another client address than this browser's (per-address limits aside). */
  async function request(
    method: 'GET' | 'POST',
    url: string,
    form?: Record<string, string>,
    from = address,
  ): Promise<LightMyRequestResponse> {
    const headers: Record<string, string> = {};
    if (jar.size > 0) headers.cookie = [...jar].map(([name, value]) => `${name}=${value}`).join('; ');
    const options: InjectOptions = { method, url, headers, remoteAddress: from };
    if (form) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      options.payload = new URLSearchParams(form).toString();
    }
    const res = await http.inject(options);
    keep(res);
    return res;
  }

  /** The `_csrf` of the first form on a page. */
  function csrfOf(body: string): string {
    const token = /name="_csrf" value="([^"]+)"/.exec(body)?.[1];
    if (!token) throw new Error(`no CSRF field on the page: ${body.slice(0, 300) || '(empty)'}`);
    return token;
  }

  return {
    jar,
    address,
    request,
    csrfOf,
    /** Opens `page`, then sends its form to `action` with `fields` and the page's CSRF token. */
    async submit(page: string, action: string, fields: Record<string, string>): Promise<LightMyRequestResponse> {
      const shown = await request('GET', page);
      if (shown.statusCode !== 200 || shown.body === '')
        throw new Error(`${page} answered ${shown.statusCode}: ${JSON.stringify(shown.headers)} ${shown.body.slice(0, 300)}`);
      return request('POST', action, { _csrf: csrfOf(shown.body), ...fields });
    },
    /** A CSRF token of this browser, from the sign-in page (for a form whose own page is gone). */
    async csrf(): Promise<string> {
      return csrfOf((await request('GET', '/console/sign-in')).body);
    },
  };
}

export type FormClient = ReturnType<typeof formClient>;
