import { type EnvReader, readEnvString } from './env-reader.ts';
import { isOperatorRole, OPERATOR_ROLES, type OperatorRole } from './operators-config.ts';

/**
 * The operators' roles, named here because the configuration refuses a role map that names
 * anything else at start, and configuration sits below the modules (docs/architecture.md).
 */

/**
 * Single sign-on for operators over OpenID Connect (docs/operators.md). Off unless OIDC_ISSUER
 * is set; then the client's id and secret are required and every value is checked at start.
 */
export interface SingleSignOnConfig {
  /** The identity provider's issuer identifier; discovery reads its metadata from there. */
  readonly issuer: string;
  readonly clientId: string;
  /** A secret: never logged, never shown. */
  readonly clientSecret: string;
  /** Where the identity provider sends the operator back; registered there as is. */
  readonly redirectUrl: string;
  /** The ID token (or userinfo) claim that lists the operator's groups or roles. */
  readonly rolesClaim: string;
  /**
   * The identity provider's group names → OpenIBS roles. When set, only the groups named here
   * give a role; when undefined, the claim's values are taken as OpenIBS role names.
   */
  readonly roleMap: Readonly<Record<string, OperatorRole>> | undefined;
  /** Scopes asked for besides `openid email profile` (some providers send groups only so). */
  readonly extraScopes: readonly string[];
}

const DEFAULT_ROLES_CLAIM = 'openibs_roles';
const BASE_SCOPES = new Set(['openid', 'email', 'profile']);

/** Reads OIDC_*; undefined when single sign-on is off (OIDC_ISSUER unset). */
export function readSsoConfig(
  read: EnvReader,
  publicBaseUrl: string,
): SingleSignOnConfig | undefined {
  const issuer = readEnvString(read, 'OIDC_ISSUER', {});
  if (issuer === undefined) {
    return undefined;
  }
  const redirectUrl =
    readEnvString(read, 'OIDC_REDIRECT_URL', {}) ?? `${publicBaseUrl}/dashboard/sso/callback`;
  checkUrl(read, 'OIDC_ISSUER', issuer);
  checkUrl(read, 'OIDC_REDIRECT_URL', redirectUrl);
  return Object.freeze({
    issuer,
    clientId: readEnvString(read, 'OIDC_CLIENT_ID', { required: true }) ?? '',
    clientSecret: readEnvString(read, 'OIDC_CLIENT_SECRET', { required: true }) ?? '',
    redirectUrl,
    rolesClaim: readRolesClaim(read),
    roleMap: readRoleMap(read),
    extraScopes: Object.freeze(readExtraScopes(read)),
  });
}

/** Whether plain http may be used with this URL: only on the machine itself (tests, a laptop). */
export function isLoopbackUrl(url: URL): boolean {
  return ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname);
}

/** https, or http on the loopback address only: tokens and codes never cross a network in clear. */
function checkUrl(read: EnvReader, name: string, value: string): void {
  if (!URL.canParse(value)) {
    read.problems.push(`${name} is not a URL: "${value}"`);
    return;
  }
  const url = new URL(value);
  const loopbackHttp = url.protocol === 'http:' && isLoopbackUrl(url);
  if (url.protocol !== 'https:' && !loopbackHttp) {
    read.problems.push(`${name} must be https (http only for 127.0.0.1 or localhost): "${value}"`);
  }
  if (url.search !== '' || url.hash !== '') {
    read.problems.push(`${name} must have no query or fragment: "${value}"`);
  }
}

function readRolesClaim(read: EnvReader): string {
  const claim = readEnvString(read, 'OIDC_ROLES_CLAIM', {}) ?? DEFAULT_ROLES_CLAIM;
  if (!/^[\w.:/-]{1,200}$/.test(claim)) {
    read.problems.push(`OIDC_ROLES_CLAIM must be a claim name, got "${claim}"`);
  }
  return claim;
}

/** "ibs-admins=admin,ibs-finance=finance": each group gives one role, a group appears once. */
function readRoleMap(read: EnvReader): Readonly<Record<string, OperatorRole>> | undefined {
  const raw = readEnvString(read, 'OIDC_ROLE_MAP', {});
  if (raw === undefined) {
    return undefined;
  }
  const map: Record<string, OperatorRole> = Object.create(null);
  for (const item of raw.split(',')) {
    const at = item.lastIndexOf('=');
    const group = item.slice(0, Math.max(at, 0)).trim();
    const role = item.slice(at + 1).trim();
    if (at < 1 || group === '' || !isOperatorRole(role) || group in map) {
      read.problems.push(
        `OIDC_ROLE_MAP must look like "group=role,group=role" with each group once and roles among ${OPERATOR_ROLES.join(', ')}, got "${item.trim()}"`,
      );
      continue;
    }
    map[group] = role;
  }
  return Object.freeze(map);
}

function readExtraScopes(read: EnvReader): string[] {
  const raw = readEnvString(read, 'OIDC_EXTRA_SCOPES', {}) ?? '';
  const scopes = raw.split(/\s+/).filter((scope) => scope !== '' && !BASE_SCOPES.has(scope));
  const bad = scopes.find((scope) => !/^[\x21\x23-\x5b\x5d-\x7e]+$/.test(scope));
  if (bad !== undefined) {
    read.problems.push(`OIDC_EXTRA_SCOPES must be scope names separated by spaces, got "${bad}"`);
  }
  return [...new Set(scopes)];
}
