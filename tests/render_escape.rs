//! The browser must not reach the machine's own network: a page that tries every way out towards a
//! local origin that records hits, rendered as raw HTML and with its scripts running, causes no hit.
//!
//! A second local origin, reachable only because the test names it in `allow_private_hosts`, answers
//! every request with a redirect to the recording origin: its hits prove the scripted page really
//! reached the network through the proxy (the test would pass trivially if nothing ran), and the
//! recorder's silence proves each redirect hop was checked again.

use std::sync::{Arc, Mutex};
use std::time::Duration;

#[path = "common/renderer.rs"]
mod renderer;

use pith::browser::RenderConfig;
use renderer::renderer;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, UdpSocket};

/// A local origin that records the first line of every request, and every UDP datagram.
struct Recorder {
    port: u16,
    udp_port: u16,
    hits: Arc<Mutex<Vec<String>>>,
}

async fn recorder(redirect_to: Option<u16>) -> Recorder {
    let tcp = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let udp = UdpSocket::bind("127.0.0.1:0").await.unwrap();
    let port = tcp.local_addr().unwrap().port();
    let udp_port = udp.local_addr().unwrap().port();
    let hits = Arc::new(Mutex::new(Vec::new()));
    let h = hits.clone();
    tokio::spawn(async move {
        loop {
            let Ok((mut s, _)) = tcp.accept().await else { continue };
            let h = h.clone();
            tokio::spawn(async move {
                let mut buf = vec![0u8; 4096];
                let n = tokio::time::timeout(Duration::from_secs(2), s.read(&mut buf)).await.ok().and_then(Result::ok);
                let first = String::from_utf8_lossy(&buf[..n.unwrap_or(0)]).lines().next().unwrap_or("").to_string();
                h.lock().unwrap().push(format!("tcp {first}"));
                let reply = match redirect_to {
                    Some(p) => format!(
                        "HTTP/1.1 302 Found\r\nLocation: http://127.0.0.1:{p}/redirected\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
                    ),
                    None => "HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok".to_string(),
                };
                let _ = s.write_all(reply.as_bytes()).await;
            });
        }
    });
    let h = hits.clone();
    tokio::spawn(async move {
        let mut buf = [0u8; 2048];
        while let Ok((n, from)) = udp.recv_from(&mut buf).await {
            h.lock().unwrap().push(format!("udp {n} bytes from {from}"));
        }
    });
    Recorder { port, udp_port, hits }
}

/// Every way out a page has, each aimed at `base` (an origin like `http://127.0.0.1:1234`).
fn escape_page(bases: &[String], udp_port: u16) -> String {
    let mut body = String::new();
    let mut css = String::new();
    let mut js = String::new();
    for (k, b) in bases.iter().enumerate() {
        let ws = b.replacen("http://", "ws://", 1);
        body.push_str(&format!(
            r#"<img src="{b}/img{k}"><img srcset="{b}/srcset{k} 2x"><script src="{b}/script{k}"></script>
<link rel="stylesheet" href="{b}/css{k}"><link rel="prefetch" href="{b}/prefetch{k}"><link rel="preload" as="image" href="{b}/preload{k}">
<link rel="preconnect" href="{b}"><link rel="dns-prefetch" href="{b}"><link rel="icon" href="{b}/icon{k}">
<iframe src="{b}/iframe{k}"></iframe><frame src="{b}/frame{k}"><object data="{b}/object{k}"></object><embed src="{b}/embed{k}">
<video src="{b}/video{k}" autoplay></video><audio src="{b}/audio{k}" autoplay></audio><video poster="{b}/poster{k}"></video>
<input type="image" src="{b}/input{k}"><svg><image href="{b}/svgimage{k}"/></svg>
<form id="f{k}" action="{b}/form{k}" method="post"><input name="x" value="1"></form>
<a id="a{k}" href="{b}/link{k}" ping="{b}/ping{k}">link</a>
<div style="background-image:url({b}/inline{k})">styled</div>
"#
        ));
        css.push_str(&format!(
            "@import url({b}/import{k}); body {{ background: url({b}/bg{k}); }} @font-face {{ font-family: f{k}; src: url({b}/font{k}); }} p {{ font-family: f{k}; cursor: url({b}/cursor{k}), auto; }}\n"
        ));
        js.push_str(&format!(
            r#"
try {{ fetch("{b}/fetch{k}").catch(() => {{}}); }} catch (e) {{}}
try {{ fetch("{b}/fetch-nocors{k}", {{ mode: "no-cors" }}).catch(() => {{}}); }} catch (e) {{}}
try {{ const x = new XMLHttpRequest(); x.open("GET", "{b}/xhr{k}"); x.send(); }} catch (e) {{}}
try {{ new WebSocket("{ws}/ws{k}"); }} catch (e) {{}}
try {{ navigator.sendBeacon("{b}/beacon{k}", "x"); }} catch (e) {{}}
try {{ new EventSource("{b}/sse{k}"); }} catch (e) {{}}
try {{ new Image().src = "{b}/image{k}"; }} catch (e) {{}}
try {{ new Worker("{b}/worker{k}"); }} catch (e) {{}}
try {{ navigator.serviceWorker && navigator.serviceWorker.register("{b}/sw{k}"); }} catch (e) {{}}
try {{ window.open("{b}/popup{k}"); }} catch (e) {{}}
try {{ document.getElementById("a{k}").click(); }} catch (e) {{}}
try {{ setTimeout(() => document.getElementById("f{k}").submit(), 50); }} catch (e) {{}}
try {{ import("{b}/module{k}").catch(() => {{}}); }} catch (e) {{}}
"#
        ));
    }
    let first = &bases[0];
    js.push_str(&format!(
        r#"
try {{
  const pc = new RTCPeerConnection({{ iceServers: [{{ urls: "stun:127.0.0.1:{udp_port}" }}, {{ urls: "turn:127.0.0.1:{udp_port}", username: "u", credential: "p" }}] }});
  pc.createDataChannel("x");
  pc.createOffer().then(o => pc.setLocalDescription(o)).catch(() => {{}});
}} catch (e) {{}}
setTimeout(() => {{ location.href = "{first}/navigate"; }}, 100);
"#
    ));
    format!(
        r#"<!DOCTYPE html><html><head><meta http-equiv="refresh" content="0;url={first}/refresh">
<base href="{first}/base/"><style>{css}</style></head><body><p>Article text that stays on the page while it tries to leave.</p>
{body}<img src="relative-to-base"><script>{js}</script></body></html>"#
    )
}

fn config() -> RenderConfig {
    // Short waits: the page gets its load event and a settling time, nothing more.
    RenderConfig { js_wait_ms: 3000, js_settle_ms: 1500, ..RenderConfig::default() }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_way_out_with_or_without_scripts() {
    let rec = recorder(None).await;
    let p = rec.port;
    let bases = vec![
        format!("http://127.0.0.1:{p}"),
        format!("http://localhost:{p}"),
        format!("http://[::ffff:127.0.0.1]:{p}"),
        format!("http://127.1:{p}"),
        format!("http://0x7f000001:{p}"),
        format!("http://2130706433:{p}"),
    ];
    let page = escape_page(&bases, rec.udp_port);
    // The recorder answers: prove it, so that silence below means something.
    let mut probe = tokio::net::TcpStream::connect(("127.0.0.1", p)).await.unwrap();
    probe.write_all(b"GET /probe HTTP/1.1\r\n\r\n").await.unwrap();
    let mut answer = String::new();
    let _ = probe.read_to_string(&mut answer).await;
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    rec.hits.lock().unwrap().clear();

    let Some(r) = renderer(config()) else { return };
    let engine = pith::Engine::untrained().unwrap();
    // Raw HTML: laid out with every request refused.
    let layout = r.layout(&engine, page.as_bytes(), None, &[]).await.unwrap();
    assert!(layout.boxes.iter().any(Option::is_some));
    // Scripts on, at an address of the page's own (its relative requests go there too).
    let scripted =
        r.run_scripts(&engine, page.as_bytes(), None, Some(&format!("http://127.0.0.1:{p}/page"))).await.unwrap();
    assert!(scripted.html.contains("Article text that stays"), "the page was read back");
    assert!(scripted.requests > 0 && scripted.blocked <= scripted.requests);
    // Give stragglers (beacons, pings, timers) time to arrive, had anything got out.
    tokio::time::sleep(Duration::from_millis(1500)).await;
    let hits = rec.hits.lock().unwrap().clone();
    let stats = r.stats();
    r.shutdown().await;
    eprintln!(
        "{} requests in the scripted page ({} refused by the page policy); proxy refused {} connections",
        scripted.requests, scripted.blocked, stats.proxy_refused
    );
    assert!(hits.is_empty(), "the page reached the local origin: {hits:#?}");
    assert!(stats.proxy_refused > 0, "the page's requests reached the proxy and were refused there");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn redirects_are_checked_again() {
    let target = recorder(None).await;
    let redirector = recorder(Some(target.port)).await;
    let r = redirector.port;
    // `localhost` is exempt here (an internal origin the operator trusts); 127.0.0.1 is not.
    let cfg = RenderConfig { allow_private_hosts: vec!["localhost".into()], allowed_ports: vec![], ..config() };
    let Some(renderer) = renderer(cfg) else { return };
    let engine = pith::Engine::untrained().unwrap();
    let page = format!(
        r#"<!DOCTYPE html><html><body><p>Redirect test page with a little text in it.</p>
<img src="http://localhost:{r}/img"><iframe src="http://localhost:{r}/frame"></iframe>
<link rel="stylesheet" href="http://localhost:{r}/css"><script src="http://localhost:{r}/script"></script>
<script>fetch("http://localhost:{r}/fetch").catch(() => {{}}); new WebSocket("ws://localhost:{r}/ws");</script></body></html>"#
    );
    let layout_only = renderer.layout(&engine, page.as_bytes(), None, &[]).await.unwrap();
    assert!(layout_only.boxes.iter().any(Option::is_some));
    assert!(redirector.hits.lock().unwrap().is_empty(), "the layout pass makes no request at all");
    renderer.run_scripts(&engine, page.as_bytes(), None, Some("http://localhost/")).await.unwrap();
    tokio::time::sleep(Duration::from_millis(1000)).await;
    renderer.shutdown().await;
    let reached = redirector.hits.lock().unwrap().clone();
    let leaked = target.hits.lock().unwrap().clone();
    assert!(reached.len() >= 3, "the exempt origin was reached through the proxy: {reached:#?}");
    assert!(leaked.is_empty(), "a redirect reached the refused origin: {leaked:#?}");
}
