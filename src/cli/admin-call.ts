import { userInfo } from 'node:os';
import type { CliContext } from './cli-context.ts';

export interface CliCommand {
  readonly usage: string;
  readonly run: (context: CliContext) => Promise<unknown>;
}

/** Calls the admin API of the running server with the admin token. */
export async function call(context: CliContext, method: string, path: string, body?: unknown) {
  const response = await fetch(`${await context.baseUrl()}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${await context.adminToken()}`,
      'content-type': 'application/json',
      // Who is acting, for the audit trail: a label, not a credential.
      'x-operator': operatorName(context),
    },
    body: body === undefined ? null : JSON.stringify(body),
  });
  const payload = (await response.json()) as { data?: unknown; message?: string };
  if (!response.ok) {
    throw new Error(`${response.status}: ${payload.message ?? 'request failed'}`);
  }
  return payload.data;
}

export function required(context: CliContext, name: string): string {
  const value = context.options[name];
  if (typeof value !== 'string' || value === '') {
    throw new Error(`--${name} is required`);
  }
  return value;
}

/** --operator NAME, or OPENIBS_OPERATOR, or the login name. */
function operatorName(context: CliContext): string {
  const given = context.options.operator ?? process.env.OPENIBS_OPERATOR;
  const name = typeof given === 'string' && given !== '' ? given : userInfo().username;
  return name.replace(/[^A-Za-z0-9._@-]/g, '').slice(0, 64) || 'cli';
}
