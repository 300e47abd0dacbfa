import net from 'node:net';

/**
 * Which addresses a server-side fetch may reach: only public unicast. One list for every fetch the
 * gateway makes on someone else's say-so (client image URLs, result URLs an upstream hands back).
 */
const FORBIDDEN_V4 = new net.BlockList();
for (const [net4, bits] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  FORBIDDEN_V4.addSubnet(net4, bits, 'ipv4');

// NAT64, 6to4 and Teredo are refused whole: the host behind them cannot be vetted cheaply.
const FORBIDDEN_V6 = new net.BlockList();
for (const [net6, bits] of [
  ['::', 128],
  ['::1', 128],
  ['64:ff9b::', 96],
  ['64:ff9b:1::', 48],
  ['100::', 64],
  ['2001::', 32],
  ['2001:db8::', 32],
  ['2002::', 16],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
] as const)
  FORBIDDEN_V6.addSubnet(net6, bits, 'ipv6');

/** The 16 bytes of an IPv6 address (valid per net.isIPv6), a dotted IPv4 tail included. */
function ipv6Bytes(address: string): number[] {
  let text = address.split('%')[0] ?? '';
  const tail = /(\d+\.\d+\.\d+\.\d+)$/.exec(text)?.[1];
  if (tail) {
    const [a = 0, b = 0, c = 0, d = 0] = tail.split('.').map(Number);
    text = text.slice(0, -tail.length) + `${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, rest] = text.split('::');
  const groups = (s: string | undefined) => (s ? s.split(':').map((g) => parseInt(g, 16)) : []);
  const h = groups(head);
  const r = rest === undefined ? [] : groups(rest);
  const all = [...h, ...Array(8 - h.length - r.length).fill(0), ...r];
  return all.flatMap((g) => [g >> 8, g & 0xff]);
}

/**
 * The IPv4 address inside an IPv6 one that carries it: IPv4-compatible `::a.b.c.d` (::/96), IPv4-mapped
 * `::ffff:a.b.c.d`, IPv4-translated `::ffff:0:a.b.c.d` (::ffff:0:0:0/96) and NAT64 `64:ff9b::a.b.c.d`.
 */
export function embeddedIpv4(address: string): string | undefined {
  if (net.isIPv6(address) === false) return undefined;
  const b = ipv6Bytes(address);
  const zeros = (from: number, to: number) => b.slice(from, to).every((x) => x === 0);
  const v4 = b.slice(12).join('.');
  if (zeros(0, 12)) return v4;
  if (zeros(0, 10) && b[10] === 0xff && b[11] === 0xff) return v4;
  if (zeros(0, 8) && b[8] === 0xff && b[9] === 0xff && zeros(10, 12)) return v4;
  if (b[0] === 0 && b[1] === 0x64 && b[2] === 0xff && b[3] === 0x9b && zeros(4, 12)) return v4;
  return undefined;
}

/** True for addresses a fetch on someone else's say-so must never reach (cloud metadata 169.254.169.254 included). */
export function isForbiddenAddress(address: string): boolean {
  const family = net.isIP(address);
  if (family === 0) return true;
  if (family === 4) return FORBIDDEN_V4.check(address, 'ipv4');
  const inner = embeddedIpv4(address);
  if (inner !== undefined && FORBIDDEN_V4.check(inner, 'ipv4')) return true;
  return FORBIDDEN_V6.check(address, 'ipv6');
}
