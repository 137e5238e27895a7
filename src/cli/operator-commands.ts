import { readFile } from 'node:fs/promises';
import { type CliCommand, call, required } from './admin-call.ts';
import type { CliContext } from './cli-context.ts';

const clientPath = (context: CliContext) =>
  `/admin/clients/${encodeURIComponent(required(context, 'client'))}`;
const appPath = (context: CliContext) =>
  `${clientPath(context)}/apps/${encodeURIComponent(required(context, 'app'))}`;

/** Operator control (docs/security.md): apps, keys, client access and the audit trail. */
export const OPERATOR_COMMANDS: Record<string, CliCommand> = {
  dashboard: {
    usage: 'dashboard   print a one-time link that signs you in to the dashboard',
    async run(context) {
      const link = (await call(context, 'POST', '/admin/dashboard/login-links', {})) as {
        url: string;
      };
      return link.url;
    },
  },
  'apps:list': {
    usage: 'apps:list --client ID   a client’s apps with their keys',
    run: (context) => call(context, 'GET', `${clientPath(context)}/apps`),
  },
  'apps:revoke': {
    usage: 'apps:revoke --client ID --app ID   revoke an app and every token it holds',
    run: (context) => call(context, 'POST', `${appPath(context)}/revoke`, {}),
  },
  'keys:add': {
    usage: 'keys:add --client ID --app ID --public-key FILE   add a key to an app (rotation)',
    async run(context) {
      const publicKey = await readFile(required(context, 'public-key'), 'utf8');
      return call(context, 'POST', `${appPath(context)}/keys`, { publicKey });
    },
  },
  'keys:revoke': {
    usage: 'keys:revoke --client ID --app ID --key-id ID   revoke a key; the app’s tokens stop',
    run: (context) =>
      call(
        context,
        'POST',
        `${appPath(context)}/keys/${encodeURIComponent(required(context, 'key-id'))}/revoke`,
        {},
      ),
  },
  'clients:disable': {
    usage: 'clients:disable --client ID   no token for the client’s apps; its tokens stop',
    run: (context) => call(context, 'POST', `${clientPath(context)}/disable`, {}),
  },
  'clients:enable': {
    usage: 'clients:enable --client ID   let a disabled client sign in again',
    run: (context) => call(context, 'POST', `${clientPath(context)}/enable`, {}),
  },
  'clients:revoke-tokens': {
    usage: 'clients:revoke-tokens --client ID   revoke every access and refresh token at once',
    run: (context) => call(context, 'POST', `${clientPath(context)}/revoke-tokens`, {}),
  },
  'audit:list': {
    usage:
      'audit:list [--action AREA] [--actor WHO] [--target ID] [--from DATE] [--to DATE] ' +
      '[--page N] [--limit N]   the audit trail, newest first',
    run: (context) => {
      const query = new URLSearchParams();
      for (const name of ['action', 'actor', 'target', 'from', 'to', 'page', 'limit']) {
        const value = context.options[name];
        if (typeof value === 'string') {
          query.set(name, value);
        }
      }
      const text = query.toString();
      return call(context, 'GET', `/admin/audit-events${text === '' ? '' : `?${text}`}`);
    },
  },
};
