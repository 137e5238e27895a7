import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { TEST_SECRETS } from './harness.ts';

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
