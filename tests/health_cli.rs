//! `pith health`, the container health check: exit 0 on a 2xx answer, 1 on anything else, never a panic
//! and never a hang past its timeout.

use std::io::{Read, Write};
use std::net::TcpListener;
use std::process::{Child, Command, Output, Stdio};
use std::thread;
use std::time::{Duration, Instant};

fn pith(args: &[&str], env: &[(&str, &str)]) -> Output {
    let mut c = Command::new(env!("CARGO_BIN_EXE_pith"));
    c.args(args).stdin(Stdio::null());
    for (k, v) in env {
        c.env(k, v);
    }
    c.output().expect("pith runs")
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// A one-connection HTTP server answering `answer` verbatim; returns its URL and the request it read.
fn fake_server(answer: &'static str) -> (String, thread::JoinHandle<String>) {
    let l = TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}/healthz", l.local_addr().unwrap());
    let h = thread::spawn(move || {
        let (mut s, _) = l.accept().unwrap();
        s.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
        let mut req = Vec::new();
        let mut buf = [0u8; 512];
        while !req.ends_with(b"\r\n\r\n") {
            let n = s.read(&mut buf).unwrap();
            if n == 0 {
                break;
            }
            req.extend_from_slice(&buf[..n]);
        }
        s.write_all(answer.as_bytes()).unwrap();
        String::from_utf8_lossy(&req).into_owned()
    });
    (url, h)
}

#[test]
fn ok_answer_exits_zero_and_sends_a_plain_get() {
    let (url, h) = fake_server("HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\nok");
    let out = pith(&["health", "--url", &url], &[]);
    assert!(out.status.success(), "{}", stderr(&out));
    let req = h.join().unwrap();
    assert!(req.starts_with("GET /healthz HTTP/1.0\r\n"), "{req:?}");
    assert!(req.contains("\r\nHost: 127.0.0.1:"), "{req:?}");
}

#[test]
fn error_status_exits_one() {
    let (url, h) = fake_server("HTTP/1.1 503 Service Unavailable\r\ncontent-length: 0\r\n\r\n");
    let out = pith(&["health", "--url", &url], &[]);
    h.join().unwrap();
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(stderr(&out).contains("503"), "{}", stderr(&out));
}

#[test]
fn garbage_answer_exits_one() {
    let (url, h) = fake_server("SSH-2.0-OpenSSH\r\n");
    let out = pith(&["health", "--url", &url], &[]);
    h.join().unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("not an HTTP answer"), "{}", stderr(&out));
}

#[test]
fn refused_and_bad_urls_exit_one_without_panic() {
    // A port that was just free: nothing listens there.
    let port = TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    for url in [format!("http://127.0.0.1:{port}/healthz"), "https://127.0.0.1/".into(), "http:///x".into()] {
        let out = pith(&["health", "--url", &url], &[]);
        assert_eq!(out.status.code(), Some(1), "{url}: {}", stderr(&out));
        assert!(!stderr(&out).contains("panicked"), "{}", stderr(&out));
    }
}

#[test]
fn silent_server_times_out() {
    let l = TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}/healthz", l.local_addr().unwrap());
    let start = Instant::now();
    let out = pith(&["health", "--url", &url, "--timeout-ms", "300"], &[]);
    assert_eq!(out.status.code(), Some(1));
    assert!(start.elapsed() < Duration::from_secs(5), "{:?}", start.elapsed());
    drop(l);
}

struct Serve(Child);

impl Drop for Serve {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// The real service, and `pith health` finding it through the same `PITH_SERVER__LISTEN` it reads.
#[test]
fn probes_the_real_service_at_its_configured_address() {
    let port = TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let listen = format!("0.0.0.0:{port}");
    let env = [("PITH_SERVER__LISTEN", listen.as_str())];
    let mut c = Command::new(env!("CARGO_BIN_EXE_pith"));
    c.arg("serve").env("PITH_SERVER__LISTEN", &listen).stdin(Stdio::null()).stdout(Stdio::null()).stderr(Stdio::null());
    let _serve = Serve(c.spawn().expect("pith serve starts"));
    let deadline = Instant::now() + Duration::from_secs(20);
    let out = loop {
        let out = pith(&["health"], &env);
        if out.status.success() || Instant::now() > deadline {
            break out;
        }
        thread::sleep(Duration::from_millis(100));
    };
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(String::from_utf8_lossy(&out.stdout).contains(&format!("http://127.0.0.1:{port}/healthz: 200")));
    let ready = pith(&["health", "--url", &format!("http://127.0.0.1:{port}/readyz")], &[]);
    assert!(ready.status.success(), "{}", stderr(&ready));
    let missing = pith(&["health", "--url", &format!("http://127.0.0.1:{port}/no-such-path")], &[]);
    assert_eq!(missing.status.code(), Some(1));
}
