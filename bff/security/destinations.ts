import { BlockList, isIP, isIPv4 } from 'node:net';

/**
 * Which addresses the server may send a merchant's requests to (webhook endpoints): public internet addresses only,
 * so a merchant cannot make the server reach its own machine, the network it runs in, or a cloud's metadata service.
 * The one rule for both moments: the host of a URL when an endpoint is registered (`hostRefusal`), and every address
 * a name resolves to when a delivery connects (`addressRefusal`, through `guarded-agents.ts`).
 */

/** Why a host is not a public internet destination. */
export type RefusalReason =
  | 'loopback'
  | 'private'
  | 'shared'
  | 'link-local'
  | 'local-name'
  | 'metadata'
  | 'unspecified'
  | 'multicast'
  | 'broadcast'
  | 'documentation'
  | 'reserved';

/**
 * `allowPrivate` (the operator's `WEBHOOK_ALLOW_PRIVATE_DESTINATIONS=1`): a receiver on the server's own machine or
 * network is allowed. Never allowed even then: cloud metadata services, and addresses no receiver can listen on.
 */
export type DestinationPolicy = { allowPrivate: boolean };

const ALLOWED_BY_OPERATOR: ReadonlySet<RefusalReason> = new Set(['loopback', 'private', 'shared', 'link-local', 'local-name']);

const DESCRIPTIONS: Record<RefusalReason, string> = {
  loopback: 'a loopback address',
  private: 'a private network address',
  shared: 'a carrier-grade NAT address (100.64.0.0/10)',
  'link-local': 'a link-local address',
  'local-name': 'a name of a local or internal network',
  metadata: 'a cloud metadata service',
  unspecified: 'the unspecified address',
  multicast: 'a multicast address',
  broadcast: 'the broadcast address',
  documentation: 'a documentation address',
  reserved: 'a reserved address',
};

/** The IANA special-purpose ranges no public server is reached at, most specific first (the first match names it). */
const RANGES: readonly [RefusalReason, 'ipv4' | 'ipv6', string, number][] = [
  // Cloud metadata services: AWS, GCP, Azure, OpenStack (IPv4 and AWS's IPv6), AWS ECS task metadata, Alibaba.
  ['metadata', 'ipv4', '169.254.169.254', 32],
  ['metadata', 'ipv4', '169.254.170.2', 32],
  ['metadata', 'ipv4', '100.100.100.200', 32],
  ['metadata', 'ipv6', 'fd00:ec2::254', 128],
  ['broadcast', 'ipv4', '255.255.255.255', 32],
  ['unspecified', 'ipv4', '0.0.0.0', 8],
  ['private', 'ipv4', '10.0.0.0', 8],
  ['shared', 'ipv4', '100.64.0.0', 10],
  ['loopback', 'ipv4', '127.0.0.0', 8],
  ['link-local', 'ipv4', '169.254.0.0', 16],
  ['private', 'ipv4', '172.16.0.0', 12],
  ['reserved', 'ipv4', '192.0.0.0', 24],
  ['documentation', 'ipv4', '192.0.2.0', 24],
  ['reserved', 'ipv4', '192.88.99.0', 24],
  ['private', 'ipv4', '192.168.0.0', 16],
  ['reserved', 'ipv4', '198.18.0.0', 15],
  ['documentation', 'ipv4', '198.51.100.0', 24],
  ['documentation', 'ipv4', '203.0.113.0', 24],
  ['multicast', 'ipv4', '224.0.0.0', 4],
  ['reserved', 'ipv4', '240.0.0.0', 4],
  ['unspecified', 'ipv6', '::', 128],
  ['loopback', 'ipv6', '::1', 128],
  // IPv4-compatible addresses (deprecated), the local-use NAT64 prefix, discard-only, IETF assignments (Teredo
  // among them), 6to4: none is where a webhook receiver listens, and several tunnel to an IPv4 address.
  ['reserved', 'ipv6', '::', 96],
  ['reserved', 'ipv6', '64:ff9b:1::', 48],
  ['reserved', 'ipv6', '100::', 64],
  ['reserved', 'ipv6', '2001::', 23],
  ['documentation', 'ipv6', '2001:db8::', 32],
  ['reserved', 'ipv6', '2002::', 16],
  ['documentation', 'ipv6', '3fff::', 20],
  ['private', 'ipv6', 'fc00::', 7],
  ['link-local', 'ipv6', 'fe80::', 10],
  ['private', 'ipv6', 'fec0::', 10],
  ['multicast', 'ipv6', 'ff00::', 8],
];

const BLOCKS: readonly [RefusalReason, BlockList][] = RANGES.map(([reason, family, network, prefix]) => {
  const list = new BlockList();
  list.addSubnet(network, prefix, family);
  return [reason, list];
});

/** Names that only mean something inside a network (RFC 6761 `localhost`, `.internal`, mDNS `.local`, RFC 8375). */
const LOCAL_SUFFIXES = ['.internal', '.local', '.localdomain', '.home.arpa', '.lan', '.intranet', '.corp'];

/** The 16 bits groups of a valid IPv6 address (any spelling: `::`, an IPv4 tail, a zone). */
function ipv6Groups(address: string): number[] {
  let text = address.toLowerCase().replace(/%.*$/, '');
  const ipv4Tail = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (ipv4Tail) {
    const [a, b, c, d] = ipv4Tail.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, ipv4Tail.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const before = head === '' ? [] : head.split(':');
  const after = tail === undefined || tail === '' ? [] : tail.split(':');
  const gap = tail === undefined ? [] : Array<string>(8 - before.length - after.length).fill('0');
  return [...before, ...gap, ...after].map((group) => parseInt(group, 16));
}

/**
 * The IPv4 address an IPv6 one stands for, where the network delivers it to that IPv4 address: IPv4-mapped
 * (`::ffff:a.b.c.d`, what a dual-stack socket connects to) and the well-known NAT64 prefix (`64:ff9b::/96`).
 */
function embeddedIpv4(address: string): string | undefined {
  const groups = ipv6Groups(address);
  const mapped = groups.slice(0, 5).every((group) => group === 0) && groups[5] === 0xffff;
  const nat64 = groups[0] === 0x64 && groups[1] === 0xff9b && groups.slice(2, 6).every((group) => group === 0);
  if (!mapped && !nat64) return undefined;
  const [high = 0, low = 0] = groups.slice(6);
  return [high >> 8, high & 0xff, low >> 8, low & 0xff].join('.');
}

/** Why an IP address (either family, any spelling Node accepts) is not a public internet address, or null. */
export function addressReason(address: string): RefusalReason | null {
  const family = isIP(address);
  if (family === 0) return 'reserved';
  if (family === 6) {
    const ipv4 = embeddedIpv4(address);
    if (ipv4 !== undefined) return addressReason(ipv4);
  }
  const type = isIPv4(address) ? 'ipv4' : 'ipv6';
  return BLOCKS.find(([, list]) => list.check(address, type))?.[0] ?? null;
}

/**
 * Why a URL's host (as WHATWG URL gives it: IPv4 in any decimal, hex, octal or short spelling already normalised,
 * IPv6 in brackets) is not a public internet destination, or null. A name is judged by its form only (`localhost`,
 * a local suffix, one label that the server's DNS search list would complete); what it resolves to is judged when
 * a delivery connects.
 */
export function hostReason(hostname: string): RefusalReason | null {
  const host = hostname.toLowerCase().replace(/^\[(.*)\]$/, '$1').replace(/\.$/, '');
  if (isIP(host) !== 0) return addressReason(host);
  if (host === 'localhost' || host.endsWith('.localhost')) return 'loopback';
  if (host === 'metadata.google.internal' || host === 'metadata') return 'metadata';
  if (!host.includes('.') || LOCAL_SUFFIXES.some((suffix) => host.endsWith(suffix))) return 'local-name';
  return null;
}

/** The reason `policy` refuses, or null when it allows the destination. */
export function refusedBy(policy: DestinationPolicy, reason: RefusalReason | null): RefusalReason | null {
  if (reason === null || (policy.allowPrivate && ALLOWED_BY_OPERATOR.has(reason))) return null;
  return reason;
}

/**
 * Why `policy` refuses the host of `url` as a destination, as the end of a sentence about the url field, or null.
 * A private destination's refusal names the operator setting that allows it (a developer's receiver on localhost).
 */
export function destinationProblem(url: URL, policy: DestinationPolicy): string | null {
  const reason = refusedBy(policy, hostReason(url.hostname));
  if (reason === null) return null;
  const allowable = ALLOWED_BY_OPERATOR.has(reason) ? '; the server allows private destinations only when its operator sets WEBHOOK_ALLOW_PRIVATE_DESTINATIONS=1' : '';
  return `must be a public internet address: ${url.hostname} is ${DESCRIPTIONS[reason]}${allowable}`;
}
