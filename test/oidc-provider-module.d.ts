/**
 * The few parts of `oidc-provider` (which ships no types) the tests' identity provider uses
 * (test/oidc-provider.ts). Declared narrowly: what is not named here is not used.
 */
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http';

  interface KoaContext {
    readonly path: string;
    readonly method: string;
    status: number;
    body: unknown;
  }

  interface Interaction {
    readonly uid: string;
    readonly params: Readonly<Record<string, unknown>>;
    readonly prompt: { readonly name: string };
  }

  interface Grant {
    addOIDCScope(scope: string): void;
    addOIDCClaims(claims: readonly string[]): void;
    save(): Promise<string>;
  }

  export interface Account {
    readonly accountId: string;
    claims(): Promise<Record<string, unknown>>;
  }

  export default class Provider {
    constructor(issuer: string, configuration: Record<string, unknown>);
    readonly Grant: new (options: {
      accountId: string;
      clientId: string;
    }) => Grant;
    callback(): (request: IncomingMessage, response: ServerResponse) => void;
    use(middleware: (ctx: KoaContext, next: () => Promise<void>) => Promise<void>): void;
    on(event: string, listener: (...args: unknown[]) => void): void;
    interactionDetails(request: IncomingMessage, response: ServerResponse): Promise<Interaction>;
    interactionFinished(
      request: IncomingMessage,
      response: ServerResponse,
      result: Record<string, unknown>,
      options?: { mergeWithLastSubmission?: boolean },
    ): Promise<void>;
  }
}
