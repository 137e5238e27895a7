import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type CryptoKey, decodeJwt, exportJWK, generateKeyPair, type JWK, SignJWT } from 'jose';
import Provider, { type Account } from 'oidc-provider';

export interface TestUser {
  readonly id: string;
  /** Everything but `sub`: email, email_verified, name, openibs_roles… as the provider holds them. */
  readonly claims: Readonly<Record<string, unknown>>;
}

export interface TestClient {
  readonly clientId: string;
  readonly clientSecret: string;
  readonly redirectUri: string;
}

export interface TestIdentityProviderOptions {
  readonly clients: readonly TestClient[];
  readonly users: readonly TestUser[];
  /**
   * true: the profile claims ride in the ID token. false (oidc-provider's default, as the spec
   * has it for the code flow): the ID token carries `sub` and the rest is at userinfo.
   */
  readonly claimsInIdToken?: boolean;
}

/** How the next ID token is to be mis-issued: its claims changed, re-signed by which key. */
interface Misissue {
  readonly change: (claims: Record<string, unknown>) => Record<string, unknown>;
  readonly foreignKey: boolean;
}

const SIGNING_KID = 'test-idp-key';

/**
 * A real OpenID Connect provider (the `oidc-provider` package) on 127.0.0.1, in the test's
 * process. No browser: `signIn` follows the redirects with fetch and completes the login
 * interaction for the user named, as the provider's own interaction API does it.
 */
export class TestIdentityProvider {
  /** false: every request is answered 503, as by a provider that is down. */
  available = true;
  private misissue: Misissue | undefined;

  private constructor(
    readonly issuer: string,
    private readonly server: Server,
    private readonly signingKey: CryptoKey,
    private readonly redirectUris: readonly string[],
  ) {}

  static async start(options: TestIdentityProviderOptions): Promise<TestIdentityProvider> {
    let handle: (request: IncomingMessage, response: ServerResponse) => void = () => undefined;
    const server = createServer((request, response) => handle(request, response));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const { privateKey } = await generateKeyPair('RS256', { extractable: true });
    const jwk: JWK = {
      ...(await exportJWK(privateKey)),
      kid: SIGNING_KID,
      alg: 'RS256',
      use: 'sig',
    };
    const provider = new Provider(issuer, providerConfiguration(options, jwk));
    const idp = new TestIdentityProvider(
      issuer,
      server,
      privateKey,
      options.clients.map((client) => client.redirectUri),
    );
    provider.use(async (ctx, next) => {
      await next();
      if (ctx.path === '/token' && ctx.status === 200) {
        ctx.body = await idp.applyMisissue(ctx.body as Record<string, unknown>);
      }
    });
    const providerHandler = provider.callback();
    handle = (request, response) => {
      if (!idp.available) {
        response.statusCode = 503;
        response.end();
        return;
      }
      if (request.url?.startsWith('/interaction/') === true) {
        completeInteraction(provider, options.users, request, response).catch(() => {
          response.statusCode = 500;
          response.end();
        });
        return;
      }
      providerHandler(request, response);
    };
    return idp;
  }

  /**
   * The next token response's ID token gets `change` applied and is signed again: with the
   * provider's own key (a well-signed token that says something else, such as another
   * audience), or with a key the provider never published.
   */
  misissueNextIdToken(
    change: Misissue['change'],
    options: { readonly foreignKey?: boolean } = {},
  ): void {
    this.misissue = { change, foreignKey: options.foreignKey === true };
  }

  /**
   * Signs `userId` in at the authorization URL (passed as login_hint) and answers the URL the
   * provider redirects the browser back to, with its code and state.
   */
  async signIn(authorizationUrl: string, userId: string): Promise<URL> {
    const cookies = new Map<string, string>();
    let url = new URL(authorizationUrl);
    url.searchParams.set('login_hint', userId);
    for (let hop = 0; hop < 10; hop += 1) {
      const response = await fetch(url, {
        redirect: 'manual',
        headers: { cookie: [...cookies].map(([name, value]) => `${name}=${value}`).join('; ') },
      });
      for (const cookie of response.headers.getSetCookie()) {
        const [pair = ''] = cookie.split(';');
        const at = pair.indexOf('=');
        cookies.set(pair.slice(0, at), pair.slice(at + 1));
      }
      const location = response.headers.get('location');
      if (location === null) {
        throw new Error(`the provider answered ${response.status}: ${await response.text()}`);
      }
      url = new URL(location, url);
      if (this.redirectUris.some((uri) => url.href.startsWith(`${uri}?`))) {
        return url;
      }
    }
    throw new Error('the sign-in did not come back to a redirect URI');
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async applyMisissue(body: Record<string, unknown>): Promise<Record<string, unknown>> {
    const misissue = this.misissue;
    if (misissue === undefined || typeof body.id_token !== 'string') {
      return body;
    }
    this.misissue = undefined;
    const claims = misissue.change({ ...decodeJwt(body.id_token) });
    const key = misissue.foreignKey ? (await generateKeyPair('RS256')).privateKey : this.signingKey;
    const idToken = await new SignJWT(claims)
      .setProtectedHeader({ alg: 'RS256', kid: SIGNING_KID, typ: 'JWT' })
      .sign(key);
    return { ...body, id_token: idToken };
  }
}

function providerConfiguration(options: TestIdentityProviderOptions, jwk: JWK) {
  const users = new Map(options.users.map((user) => [user.id, user]));
  return {
    clients: options.clients.map((client) => ({
      client_id: client.clientId,
      client_secret: client.clientSecret,
      redirect_uris: [client.redirectUri],
      grant_types: ['authorization_code'],
      response_types: ['code'],
      token_endpoint_auth_method: 'client_secret_basic',
    })),
    jwks: { keys: [jwk] },
    cookies: { keys: ['test-identity-provider-cookie-key'] },
    claims: {
      openid: ['sub'],
      email: ['email', 'email_verified'],
      profile: ['name'],
      // A scope of its own, as many providers send groups: the client asks for it (extraScopes).
      openibs: ['openibs_roles'],
    },
    scopes: ['openid', 'email', 'profile', 'openibs'],
    conformIdTokenClaims: options.claimsInIdToken !== true,
    pkce: { required: () => true },
    features: { devInteractions: { enabled: false } },
    async findAccount(_ctx: unknown, sub: string): Promise<Account | undefined> {
      const user = users.get(sub);
      return user === undefined
        ? undefined
        : { accountId: sub, claims: async () => ({ ...user.claims, sub }) };
    },
  };
}

/** The login page's work, without a page: the user named by login_hint, consent to all asked. */
async function completeInteraction(
  provider: Provider,
  users: readonly TestUser[],
  request: IncomingMessage,
  response: ServerResponse,
): Promise<void> {
  const details = await provider.interactionDetails(request, response);
  const { client_id: clientId, scope } = details.params;
  const userId = details.params.login_hint ?? (await chosenUser(request));
  if (userId === undefined) {
    // A browser without a hint: the provider's sign-in page, one button per user.
    response
      .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
      .end(
        `<!doctype html><title>Test identity provider</title><form method="post" action="${request.url}">${users
          .map(
            (user) => `<button type="submit" name="login" value="${user.id}">${user.id}</button>`,
          )
          .join('')}</form>`,
      );
    return;
  }
  if (!users.some((user) => user.id === userId)) {
    await provider.interactionFinished(request, response, { error: 'access_denied' });
    return;
  }
  const grant = new provider.Grant({ accountId: String(userId), clientId: String(clientId) });
  grant.addOIDCScope(String(scope));
  const grantId = await grant.save();
  await provider.interactionFinished(
    request,
    response,
    { login: { accountId: String(userId) }, consent: { grantId } },
    { mergeWithLastSubmission: false },
  );
}

/** The user a browser chose on the sign-in page (a form post), if this is that post. */
async function chosenUser(request: IncomingMessage): Promise<string | undefined> {
  if (request.method !== 'POST') {
    return undefined;
  }
  const chunks: Buffer[] = [];
  for await (const chunk of request) {
    chunks.push(chunk as Buffer);
  }
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8')).get('login') ?? undefined;
}
