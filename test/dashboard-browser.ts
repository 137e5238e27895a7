import { createHmac } from 'node:crypto';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { TEST_SECRETS } from './harness.ts';

/** The key the dashboard signs its cookies with in the tests' app (dashboard-routes.ts). */
export const DASHBOARD_COOKIE_SECRET = createHmac('sha256', TEST_SECRETS.adminToken)
  .update('openibs dashboard cookies v1')
  .digest('base64url');

/**
 * A browser for the dashboard over inject: keeps cookies, reads each page's CSRF token, posts
 * forms as a browser does (urlencoded), and follows nothing by itself.
 */
export class DashboardBrowser {
  readonly cookies = new Map<string, string>();
  csrf = '';

  constructor(
    private readonly app: FastifyInstance,
    /** The browser's address (inject's default is 127.0.0.1). */
    private readonly remoteAddress?: string,
  ) {}

  private from() {
    return this.remoteAddress === undefined ? {} : { remoteAddress: this.remoteAddress };
  }

  private keep(response: LightMyRequestResponse): LightMyRequestResponse {
    for (const cookie of response.cookies) {
      if (cookie.value === '' || (cookie.maxAge !== undefined && cookie.maxAge <= 0)) {
        this.cookies.delete(cookie.name);
      } else {
        this.cookies.set(cookie.name, cookie.value);
      }
    }
    const token = /name="_csrf" value="([^"]+)"/.exec(response.body)?.[1];
    if (token !== undefined) {
      this.csrf = token;
    }
    return response;
  }

  cookieHeader(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }

  async get(url: string, headers: Record<string, string> = {}) {
    return this.keep(
      await this.app.inject({
        method: 'GET',
        url,
        ...this.from(),
        headers: { cookie: this.cookieHeader(), ...headers },
      }),
    );
  }

  async post(
    url: string,
    form: Record<string, string> = {},
    options: { csrf?: string | null } = {},
  ) {
    const fields = {
      ...form,
      ...(options.csrf === null ? {} : { _csrf: options.csrf ?? this.csrf }),
    };
    return this.keep(
      await this.app.inject({
        method: 'POST',
        url,
        ...this.from(),
        headers: {
          cookie: this.cookieHeader(),
          'content-type': 'application/x-www-form-urlencoded',
        },
        payload: new URLSearchParams(fields).toString(),
      }),
    );
  }

  /** Signs in with the admin token as `operator`. */
  async signIn(operator = 'tester') {
    await this.get('/dashboard/login');
    const response = await this.post('/dashboard/login', {
      adminToken: TEST_SECRETS.adminToken,
      operator,
    });
    if (response.statusCode !== 303) {
      throw new Error(`sign-in answered ${response.statusCode}: ${response.body}`);
    }
    // A page of the dashboard gives the CSRF token its forms carry.
    await this.get('/dashboard');
    return response;
  }
}

/**
 * What the admin API answers to a GET with the admin token: what a dashboard page must show.
 * Throws unless it answers 200.
 */
export async function adminAnswer(app: FastifyInstance, url: string) {
  const answer = await app.inject({
    method: 'GET',
    url,
    headers: { authorization: `Bearer ${TEST_SECRETS.adminToken}` },
  });
  if (answer.statusCode !== 200) {
    throw new Error(`GET ${url} answered ${answer.statusCode}: ${answer.body}`);
  }
  return answer.json();
}

/** The text of each cell of a page's tables under the column `label` (its `data-label`). */
export function column(page: string, label: string): string[] {
  const escaped = label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const cells = page.matchAll(new RegExp(`data-label="${escaped}">(.*?)</td>`, 'gs'));
  return [...cells].map((cell) => (cell[1] ?? '').replace(/<[^>]*>/g, '').trim());
}
