import { BlockList, isIP } from 'node:net';
import { type EnvReader, readEnvBoolean, readEnvInt, readEnvString } from './env-reader.ts';

/** What the server shows of itself, and to whom. */
export interface ExposureConfig {
  /** Addresses (IPs and CIDR ranges) that may reach /admin; undefined: any address. */
  readonly adminAllowList: BlockList | undefined;
  /** The admin API's routes in /docs and /openapi.json (off by default in production). */
  readonly adminApiInDocs: boolean;
  /**
   * Which proxies' X-Forwarded-For to believe for the client address (rate limits, the admin
   * allow-list, the audit trail): the proxies' addresses or CIDR ranges; unset: none.
   */
  readonly trustProxy: string | undefined;
  /** The operator dashboard at /dashboard (on by default in sandbox, off in production). */
  readonly dashboardEnabled: boolean;
  /** How long a dashboard sign-in lasts. */
  readonly dashboardSessionTtlSeconds: number;
  /** How long a one-click sign-in link (banner, `npx openibs dashboard`) can be used, once. */
  readonly dashboardLoginLinkTtlSeconds: number;
}

export function readExposureConfig(read: EnvReader, production: boolean): ExposureConfig {
  return Object.freeze({
    adminAllowList: readAllowList(read, 'ADMIN_ALLOWED_IPS'),
    adminApiInDocs: readEnvBoolean(read, 'ADMIN_API_IN_DOCS', !production),
    trustProxy: readTrustProxy(read),
    dashboardEnabled: readEnvBoolean(read, 'DASHBOARD_ENABLED', !production),
    dashboardSessionTtlSeconds: readEnvInt(read, 'DASHBOARD_SESSION_TTL_SECONDS', {
      fallback: 43_200,
      min: 300,
      max: 604_800,
    }),
    dashboardLoginLinkTtlSeconds: readEnvInt(read, 'DASHBOARD_LOGIN_LINK_TTL_SECONDS', {
      fallback: 3_600,
      min: 60,
      max: 86_400,
    }),
  });
}

function readAllowList(read: EnvReader, name: string): BlockList | undefined {
  const raw = readEnvString(read, name, {});
  if (raw === undefined) {
    return undefined;
  }
  const list = new BlockList();
  for (const entry of raw
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean)) {
    const [address = '', prefix] = entry.split('/');
    const family = isIP(address) === 6 ? 'ipv6' : 'ipv4';
    const bits = prefix === undefined ? undefined : Number(prefix);
    const maxBits = family === 'ipv6' ? 128 : 32;
    if (
      isIP(address) === 0 ||
      (bits !== undefined && !(Number.isInteger(bits) && bits >= 0 && bits <= maxBits))
    ) {
      read.problems.push(`${name}: "${entry}" is not an IP address or CIDR range`);
      continue;
    }
    if (bits === undefined) {
      list.addAddress(address, family);
    } else {
      list.addSubnet(address, bits, family);
    }
  }
  return list;
}

function readTrustProxy(read: EnvReader): string | undefined {
  const raw = readEnvString(read, 'TRUST_PROXY', {});
  if (raw === undefined) {
    return undefined;
  }
  const addresses = raw.split(',').map((part) => part.trim());
  if (addresses.some((address) => isIP(address.split('/')[0] ?? '') === 0)) {
    read.problems.push("TRUST_PROXY must list the proxies' IP addresses or CIDR ranges");
    return undefined;
  }
  return addresses.join(',');
}
