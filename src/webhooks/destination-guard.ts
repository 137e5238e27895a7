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
  /**
   * Resolve a hostname when the URL is set (default true). Sandbox sets false, so a machine
   * without network can still save public URLs; the guard still runs when a delivery connects.
   */
  readonly resolveOnWrite?: boolean;
}

export function destinationPolicy(config: Config): DestinationPolicy {
  return {
    requireHttps: config.webhooks.requireHttps,
    allowLoopback: config.webhooks.allowLoopback,
    allowPrivate: config.webhooks.allowPrivateNetworks,
    resolveOnWrite: config.ibsEnv !== 'sandbox',
  };
}

export class BlockedDestinationError extends Error {
  override readonly name = 'BlockedDestinationError';
  readonly code = 'EBLOCKEDDESTINATION';
}

type Range = readonly [network: string, prefix: number];

const LOOPBACK_V4: readonly Range[] = [['127.0.0.0', 8]];
const PRIVATE_V4: readonly Range[] = [
  ['10.0.0.0', 8],
  ['172.16.0.0', 12],
  ['192.168.0.0', 16],
  ['100.64.0.0', 10],
  ['198.18.0.0', 15],
];
// Link-local (cloud metadata lives at 169.254.169.254), "this network", IETF protocol
// assignments, multicast, reserved and broadcast.
const RESERVED_V4: readonly Range[] = [
  ['0.0.0.0', 8],
  ['169.254.0.0', 16],
  ['192.0.0.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
];

// A BlockList IPv4 rule also matches the IPv4-mapped IPv6 form of its addresses in every
// spelling (::ffff:127.0.0.1, ::ffff:7f00:1, 0:0:0:0:0:ffff:7f00:1): Node compares them as the
// same address, as the socket layer does, so a mapped address gets the policy of its IPv4.
const loopback = new BlockList();
for (const [network, prefix] of LOOPBACK_V4) {
  loopback.addSubnet(network, prefix, 'ipv4');
}
loopback.addAddress('::1', 'ipv6');

const privateNetworks = new BlockList();
for (const [network, prefix] of PRIVATE_V4) {
  privateNetworks.addSubnet(network, prefix, 'ipv4');
}
privateNetworks.addSubnet('fc00::', 7, 'ipv6');

// Never a webhook destination whatever the policy.
const alwaysBlocked = new BlockList();
for (const [network, prefix] of RESERVED_V4) {
  alwaysBlocked.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['fe80::', 10], // link-local
  ['fec0::', 10], // site-local (deprecated, RFC 3879)
  ['ff00::', 8], // multicast
  ['100::', 64], // discard-only (RFC 6666)
  ['2001:db8::', 32], // documentation
] as const) {
  alwaysBlocked.addSubnet(network, prefix, 'ipv6');
}
alwaysBlocked.addAddress('::', 'ipv6');
// NAT64 with the well-known prefix (RFC 6052) reaches the IPv4 address in its last 32 bits, which
// must be global: 64:ff9b::a.b.c.d of a loopback, private or reserved address is refused.
for (const [network, prefix] of [...LOOPBACK_V4, ...PRIVATE_V4, ...RESERVED_V4]) {
  alwaysBlocked.addSubnet(`64:ff9b::${network}`, 96 + prefix, 'ipv6');
}

// IPv6 forms that carry an IPv4 address (or a tunnel) the guard cannot vouch for: refused
// whatever the address inside. ::1 lies in ::/96 and is checked as loopback first.
const embeddingIpv4 = new BlockList();
for (const [network, prefix] of [
  ['::', 96], // IPv4-compatible ::a.b.c.d (deprecated, RFC 4291)
  ['::ffff:0:0:0', 96], // IPv4-translated (SIIT, RFC 2765)
  ['64:ff9b:1::', 48], // local-use NAT64 (RFC 8215): translates to private networks
  ['2002::', 16], // 6to4 (deprecated, RFC 7526)
  ['2001::', 32], // Teredo
] as const) {
  embeddingIpv4.addSubnet(network, prefix, 'ipv6');
}

/** The reason an address may not receive webhooks, or undefined when it may. */
export function blockedReason(address: string, policy: DestinationPolicy): string | undefined {
  const family = isIP(address) === 6 ? 'ipv6' : 'ipv4';
  if (alwaysBlocked.check(address, family)) {
    return `${address} is a link-local, reserved or multicast address`;
  }
  if (loopback.check(address, family)) {
    return policy.allowLoopback ? undefined : `${address} is a loopback address`;
  }
  if (family === 'ipv6' && embeddingIpv4.check(address, family)) {
    return `${address} is an IPv6 address that embeds IPv4 (compatible, translated, 6to4, Teredo or local NAT64)`;
  }
  if (!policy.allowPrivate && privateNetworks.check(address, family)) {
    return `${address} is a private network address`;
  }
  return undefined;
}

// Names that are loopback or metadata by definition (RFC 6761, common /etc/hosts entries), refused
// from their spelling, before any DNS: the sandbox does not resolve names when a URL is set.
const LOOPBACK_NAMES =
  /^(localhost|localhost\.localdomain|ip6-localhost|ip6-loopback)$|\.localhost$/;
const METADATA_NAMES = /^(metadata|metadata\.google\.internal|instance-data(\.ec2\.internal)?)$/;

function obviousHostReason(host: string, policy: DestinationPolicy): string | undefined {
  const name = host.toLowerCase().replace(/\.$/, '');
  if (METADATA_NAMES.test(name)) {
    return `${host} is a cloud metadata service`;
  }
  if (LOOPBACK_NAMES.test(name) && !policy.allowLoopback) {
    return `${host} is a loopback name`;
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
  const reason = isIP(host) !== 0 ? blockedReason(host, policy) : obviousHostReason(host, policy);
  if (reason !== undefined) {
    throw new BlockedDestinationError(reason);
  }
  return url;
}

/**
 * Resolves a hostname when a URL is set and refuses it when any of its addresses is blocked.
 * Skipped when the policy says not to resolve on write (sandbox): the connection-time guard
 * (guardedLookup) still refuses a blocked address at every delivery.
 */
export async function resolveAndCheck(url: URL, policy: DestinationPolicy): Promise<void> {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (isIP(host) !== 0 || policy.resolveOnWrite === false) {
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
