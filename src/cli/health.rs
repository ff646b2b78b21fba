//! `pith health`: a container health check with no curl in the image.
//!
//! One plain HTTP/1.0 GET over TCP (std only, no TLS), exit 0 on a 2xx answer and 1 otherwise. With no
//! `--url` the address comes from the same settings `pith serve` reads (embedded defaults, then
//! `--config FILE`, then `PITH_*` variables), with an unspecified listen address (`0.0.0.0`, `::`)
//! replaced by loopback, so `HEALTHCHECK CMD ["pith", "health"]` follows `PITH_SERVER__LISTEN`.

use std::io::{Read, Write};
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr, TcpStream, ToSocketAddrs};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use clap::Args;

#[derive(Debug, Args)]
pub struct HealthArgs {
    /// Full address to probe, e.g. http://127.0.0.1:8080/readyz (plain http only). Default: /healthz on
    /// the configured listen address.
    #[arg(long)]
    pub url: Option<String>,
    /// The TOML file `pith serve` was given, to find its listen address.
    #[arg(long)]
    pub config: Option<PathBuf>,
    /// Give up after this many milliseconds (connect, send and read together).
    #[arg(long, default_value_t = 2000)]
    pub timeout_ms: u64,
}

pub fn run(a: HealthArgs) -> Result<ExitCode, pith::Error> {
    let url = match a.url {
        Some(u) => u,
        None => {
            let config =
                pith::configuration::Config::load(a.config.as_deref()).map_err(|e| pith::Error::Config(e.0))?;
            default_url(config.server.listen)
        }
    };
    match probe(&url, Duration::from_millis(a.timeout_ms.max(1))) {
        Ok(status) if (200..300).contains(&status) => {
            println!("{url}: {status}");
            Ok(ExitCode::SUCCESS)
        }
        Ok(status) => {
            eprintln!("pith health: {url}: HTTP {status}");
            Ok(ExitCode::FAILURE)
        }
        Err(e) => {
            eprintln!("pith health: {url}: {e}");
            Ok(ExitCode::FAILURE)
        }
    }
}

/// `http://<listen>/healthz`, with an unspecified address replaced by loopback of the same family.
fn default_url(listen: SocketAddr) -> String {
    let ip = match listen.ip() {
        IpAddr::V4(v4) if v4.is_unspecified() => IpAddr::V4(Ipv4Addr::LOCALHOST),
        IpAddr::V6(v6) if v6.is_unspecified() => IpAddr::V6(Ipv6Addr::LOCALHOST),
        ip => ip,
    };
    format!("http://{}/healthz", SocketAddr::new(ip, listen.port()))
}

/// Split `http://host[:port][/path]` into (`host:port`, host header, path).
fn parse_url(url: &str) -> Result<(String, String, String), String> {
    let rest = url.strip_prefix("http://").ok_or("only http:// URLs are supported")?;
    let (authority, path) = match rest.find('/') {
        Some(i) => (&rest[..i], &rest[i..]),
        None => (rest, "/"),
    };
    if authority.is_empty() {
        return Err("the URL has no host".into());
    }
    // A port is present when the text after the last ':' is digits and not inside [v6] brackets.
    let has_port = authority.rsplit_once(':').is_some_and(|(h, p)| {
        !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()) && (!h.starts_with('[') || h.ends_with(']'))
    });
    let addr = if has_port { authority.to_string() } else { format!("{authority}:80") };
    Ok((addr, authority.to_string(), path.to_string()))
}

/// GET `url` and return the status code of the answer.
fn probe(url: &str, timeout: Duration) -> Result<u16, String> {
    let deadline = Instant::now() + timeout;
    let (addr, host, path) = parse_url(url)?;
    let addrs: Vec<SocketAddr> = addr.to_socket_addrs().map_err(|e| format!("cannot resolve {addr}: {e}"))?.collect();
    let mut last = format!("no address for {addr}");
    let mut stream = None;
    for sa in addrs {
        match TcpStream::connect_timeout(&sa, remaining(deadline)?) {
            Ok(s) => {
                stream = Some(s);
                break;
            }
            Err(e) => last = format!("connect {sa}: {e}"),
        }
    }
    let mut stream = stream.ok_or(last)?;
    stream.set_write_timeout(Some(remaining(deadline)?)).map_err(|e| e.to_string())?;
    let request =
        format!("GET {path} HTTP/1.0\r\nHost: {host}\r\nUser-Agent: pith-health\r\nConnection: close\r\n\r\n");
    stream.write_all(request.as_bytes()).map_err(|e| format!("send: {e}"))?;
    // Read until the status line is complete; the body is not needed.
    let mut head = Vec::with_capacity(256);
    let mut buf = [0u8; 256];
    while !head.contains(&b'\n') && head.len() < 8192 {
        stream.set_read_timeout(Some(remaining(deadline)?)).map_err(|e| e.to_string())?;
        let n = stream.read(&mut buf).map_err(|e| format!("read: {e}"))?;
        if n == 0 {
            break;
        }
        head.extend_from_slice(&buf[..n]);
    }
    let line = String::from_utf8_lossy(&head);
    let line = line.lines().next().unwrap_or("");
    let mut parts = line.split_whitespace();
    match (parts.next(), parts.next().and_then(|c| c.parse::<u16>().ok())) {
        (Some(v), Some(code)) if v.starts_with("HTTP/") => Ok(code),
        _ => Err(format!("not an HTTP answer: {line:?}")),
    }
}

fn remaining(deadline: Instant) -> Result<Duration, String> {
    let left = deadline.saturating_duration_since(Instant::now());
    if left.is_zero() { Err("timed out".into()) } else { Ok(left) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls_parse() {
        assert_eq!(
            parse_url("http://127.0.0.1:8080/healthz").unwrap(),
            ("127.0.0.1:8080".into(), "127.0.0.1:8080".into(), "/healthz".into())
        );
        assert_eq!(parse_url("http://localhost").unwrap(), ("localhost:80".into(), "localhost".into(), "/".into()));
        assert_eq!(parse_url("http://[::1]:9000/readyz").unwrap().0, "[::1]:9000");
        assert_eq!(parse_url("http://[::1]/x").unwrap().0, "[::1]:80");
        assert!(parse_url("https://example.com/").is_err());
        assert!(parse_url("http:///x").is_err());
    }

    #[test]
    fn unspecified_listen_becomes_loopback() {
        assert_eq!(default_url("0.0.0.0:8080".parse().unwrap()), "http://127.0.0.1:8080/healthz");
        assert_eq!(default_url("[::]:9000".parse().unwrap()), "http://[::1]:9000/healthz");
        assert_eq!(default_url("10.1.2.3:81".parse().unwrap()), "http://10.1.2.3:81/healthz");
    }
}
