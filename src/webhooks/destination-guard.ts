import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { BlockList, isIP, type LookupFunction } from 'node:net';
import type { Config } from '../config/config.ts';

/** Where webhooks may go. Production: https only, never to internal addresses. */
export interface DestinationPolicy {
  readonly requireHttps: boolean;
  /** 127.0.0.0/8 and ::1: sandbox allows it so developers receive webhooks locally. */
  readonly allowLoopback: boolean;
  /** RFC 1918, unique-local IPv6, carrier-grade NAT. */
  readonly allowPrivate: boolean;
}

export function destinationPolicy(config: Config): DestinationPolicy {
  return {
    requireHttps: config.webhooks.requireHttps,
    allowLoopback: config.webhooks.allowLoopback,
    allowPrivate: config.webhooks.allowPrivateNetworks,
  };
}

export class BlockedDestinationError extends Error {
  override readonly name = 'BlockedDestinationError';
  readonly code = 'EBLOCKEDDESTINATION';
}

const loopback = new BlockList();
loopback.addSubnet('127.0.0.0', 8, 'ipv4');
loopback.addAddress('::1', 'ipv6');

const privateNetworks = new BlockList();
for (const [network, prefix] of [
  ['10.0.0.0', 8],
  ['172.16.0.0', 12],
  ['192.168.0.0', 16],
  ['100.64.0.0', 10],
  ['198.18.0.0', 15],
] as const) {
  privateNetworks.addSubnet(network, prefix, 'ipv4');
}
privateNetworks.addSubnet('fc00::', 7, 'ipv6');

// Never a webhook destination whatever the policy: link-local (cloud metadata lives at
// 169.254.169.254), unspecified, multicast, broadcast and reserved ranges.
const alwaysBlocked = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['169.254.0.0', 16],
  ['192.0.0.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  alwaysBlocked.addSubnet(network, prefix, 'ipv4');
}
alwaysBlocked.addSubnet('fe80::', 10, 'ipv6');
alwaysBlocked.addSubnet('ff00::', 8, 'ipv6');
alwaysBlocked.addAddress('::', 'ipv6');

/** The reason an address may not receive webhooks, or undefined when it may. */
export function blockedReason(address: string, policy: DestinationPolicy): string | undefined {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
  const ip = mapped ?? address;
  const family = isIP(ip) === 6 ? 'ipv6' : 'ipv4';
  if (alwaysBlocked.check(ip, family)) {
    return `${address} is a link-local, reserved or multicast address`;
  }
  if (!policy.allowLoopback && loopback.check(ip, family)) {
    return `${address} is a loopback address`;
  }
  if (!policy.allowPrivate && privateNetworks.check(ip, family)) {
    return `${address} is a private network address`;
  }
  return undefined;
}

/**
 * Checks a URL's form: scheme per policy, no credentials, and a literal IP host against the
 * blocked ranges. Hostnames are checked when they are resolved (resolveAndCheck, guardedLookup).
 */
export function checkUrlForm(raw: string, policy: DestinationPolicy): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new BlockedDestinationError('not a valid URL');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new BlockedDestinationError('the URL must be http or https');
  }
  if (policy.requireHttps && url.protocol !== 'https:') {
    throw new BlockedDestinationError('the URL must use https');
  }
  if (url.username !== '' || url.password !== '') {
    throw new BlockedDestinationError('the URL must not carry credentials');
  }
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (isIP(host) !== 0) {
    const reason = blockedReason(host, policy);
    if (reason !== undefined) {
      throw new BlockedDestinationError(reason);
    }
  }
  return url;
}

/** Resolves a hostname and refuses it when any of its addresses is blocked. */
export async function resolveAndCheck(url: URL, policy: DestinationPolicy): Promise<void> {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (isIP(host) !== 0) {
    return;
  }
  const addresses = await new Promise<LookupAddress[]>((resolve, reject) => {
    dnsLookup(host, { all: true }, (error, found) => (error ? reject(error) : resolve(found)));
  });
  for (const { address } of addresses) {
    const reason = blockedReason(address, policy);
    if (reason !== undefined) {
      throw new BlockedDestinationError(`${host} resolves to ${reason}`);
    }
  }
}

/**
 * A DNS lookup for the HTTP client that refuses blocked addresses. The connection uses the very
 * address checked here, so a name that re-resolves to an internal address (DNS rebinding) after
 * the URL was accepted is still refused.
 */
export function guardedLookup(policy: DestinationPolicy): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) {
        callback(error, '', 0);
        return;
      }
      const blocked = addresses
        .map(({ address }) => blockedReason(address, policy))
        .find((reason) => reason !== undefined);
      if (blocked !== undefined || addresses.length === 0) {
        callback(new BlockedDestinationError(`${hostname}: ${blocked ?? 'no address'}`), '', 0);
        return;
      }
      if (options.all === true) {
        (callback as unknown as (error: null, all: LookupAddress[]) => void)(null, addresses);
        return;
      }
      const first = addresses[0] as LookupAddress;
      callback(null, first.address, first.family);
    });
  };
}
