import { embeddedIpv4, isForbiddenAddress } from './network-address';

describe('IPv6 addresses that carry an IPv4 one', () => {
  it.each([
    ['::127.0.0.1', '127.0.0.1'],
    ['::7f00:1', '127.0.0.1'],
    ['::a00:1', '10.0.0.1'],
    ['::ffff:192.168.0.1', '192.168.0.1'],
    ['::ffff:0:127.0.0.1', '127.0.0.1'],
    ['::ffff:0:a9fe:a9fe', '169.254.169.254'],
    ['not-an-ip', undefined],
    ['64:ff9b::10.1.2.3', '10.1.2.3'],
    ['2606:4700:4700::1111', undefined],
  ])('%s carries %s', (v6, v4) => expect(embeddedIpv4(v6)).toBe(v4));

  it.each([
    '::127.0.0.1',
    '::7f00:1',
    '::c0a8:101',
    '::ffff:0:127.0.0.1',
    '::ffff:0:a9fe:a9fe',
    '::ffff:0:10.0.0.1',
    '64:ff9b::7f00:1',
    '64:ff9b::8.8.8.8',
  ])('%s (a private or loopback IPv4 inside, or NAT64) is refused', (a) => expect(isForbiddenAddress(a)).toBe(true));

  it.each(['::ffff:0:8.8.8.8', '::ffff:8.8.8.8', '2606:4700:4700::1111'])('%s (public inside) is allowed', (a) =>
    expect(isForbiddenAddress(a)).toBe(false),
  );
});
