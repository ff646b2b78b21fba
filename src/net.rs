//! Which network addresses pith may connect to on a caller's behalf: one rule for the page fetcher
//! and for the rendering proxy.

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};

/// Is this an address pith may connect to with the default configuration? False for loopback,
/// private (RFC 1918), CGNAT, link-local (incl. 169.254.169.254), unique-local, multicast, broadcast,
/// unspecified, documentation and reserved ranges, and for IPv6 forms embedding such an IPv4 address.
pub fn is_public(ip: IpAddr) -> bool {
    match ip {
        IpAddr::V4(v4) => is_public_v4(v4),
        IpAddr::V6(v6) => is_public_v6(v6),
    }
}

fn is_public_v4(ip: Ipv4Addr) -> bool {
    let [a, b, c, _] = ip.octets();
    !(ip.is_unspecified()
        || a == 0                                  // "this network" 0.0.0.0/8
        || ip.is_loopback()                        // 127.0.0.0/8
        || ip.is_private()                         // 10/8, 172.16/12, 192.168/16
        || ip.is_link_local()                      // 169.254/16, cloud metadata
        || (a == 100 && (b & 0xC0) == 64)          // CGNAT 100.64/10
        || (a == 192 && b == 0 && c == 0)          // IETF protocol assignments 192.0.0/24
        || ip.is_documentation()                   // 192.0.2/24, 198.51.100/24, 203.0.113/24
        || (a == 198 && (b & 0xFE) == 18)          // benchmarking 198.18/15
        || ip.is_multicast()                       // 224/4
        || a >= 240) // reserved 240/4, incl. broadcast
}

fn is_public_v6(ip: Ipv6Addr) -> bool {
    if let Some(v4) = ip.to_ipv4_mapped() {
        return is_public_v4(v4); // ::ffff:a.b.c.d
    }
    let s = ip.segments();
    let embedded = |hi: u16, lo: u16| Ipv4Addr::from((u32::from(hi) << 16) | u32::from(lo));
    if s[0] == 0x64 && s[1] == 0xff9b && s[2..6] == [0, 0, 0, 0] {
        return is_public_v4(embedded(s[6], s[7])); // NAT64 64:ff9b::/96
    }
    if s[0] == 0x64 && s[1] == 0xff9b && s[2] == 1 {
        return false; // local-use NAT64 64:ff9b:1::/48: translates into the operator's own network
    }
    if s[0] == 0x2002 {
        return is_public_v4(embedded(s[1], s[2])); // 6to4
    }
    !(ip.is_unspecified()
        || ip.is_loopback()
        || s[..6] == [0, 0, 0, 0, 0, 0]            // IPv4-compatible ::a.b.c.d (deprecated)
        || ip.is_unique_local()                    // fc00::/7
        || ip.is_unicast_link_local()              // fe80::/10
        || (s[0] & 0xffc0) == 0xfec0               // site-local fec0::/10 (deprecated)
        || ip.is_multicast()                       // ff00::/8
        || (s[0] == 0x2001 && s[1] == 0x0db8)      // documentation
        || (s[0] == 0x100 && s[1..4] == [0, 0, 0])) // discard-only 100::/64
}

#[cfg(test)]
mod tests {
    use super::*;

    fn public(s: &str) -> bool {
        is_public(s.parse().unwrap())
    }

    #[test]
    fn refused_ranges() {
        for s in [
            "127.0.0.1",
            "10.1.2.3",
            "172.16.0.1",
            "192.168.1.1",
            "169.254.169.254",
            "100.64.0.1",
            "0.0.0.0",
            "255.255.255.255",
            "224.0.0.1",
            "::1",
            "::",
            "fc00::1",
            "fd12:3456::1",
            "fe80::1",
            "ff02::1",
            "::ffff:127.0.0.1",
            "::ffff:169.254.169.254",
            "64:ff9b::a9fe:a9fe",
            "2002:7f00:1::",
            "64:ff9b:1::a00:1",
            "100::1",
        ] {
            assert!(!public(s), "{s} should be refused");
        }
        for s in ["93.184.216.34", "8.8.8.8", "2606:4700::1111", "::ffff:8.8.8.8", "100.128.0.1"] {
            assert!(public(s), "{s} should be allowed");
        }
    }
}
