//! The `[render]` settings and where the browser binary is found.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

/// Settings of the rendering component (`[render]` in the configuration, `PITH_RENDER__<KEY>`).
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct RenderConfig {
    /// Use a headless browser when one is found. False: algorithms that need a layout are reported
    /// unavailable and requests for them are refused with a problem document.
    pub enabled: bool,
    /// The browser binary; empty: look for Debian's `chromium-headless-shell`, then `chromium`, then
    /// the usual names on `PATH`.
    pub browser: String,
    /// Browser processes in the pool.
    pub browsers: usize,
    /// Pages rendered at the same time across all browsers; more wait up to `queue_timeout_ms`.
    pub max_pages: usize,
    /// A browser is replaced after this many pages (bounds memory a long-lived browser accumulates).
    pub recycle_after_pages: usize,
    /// Longest wait for a free page slot before the request is refused as busy.
    pub queue_timeout_ms: u64,
    /// Longest wait for a new browser to answer its first command.
    pub launch_timeout_ms: u64,
    /// Deadline of every single DevTools call. A browser that misses it is killed and replaced.
    pub call_timeout_ms: u64,
    /// Deadline of one page from start to snapshot, waiting included.
    pub page_timeout_ms: u64,
    /// With JavaScript: longest wait for the page's load event.
    pub js_wait_ms: u64,
    /// With JavaScript: time given to scripts after the load event before the page is read.
    pub js_settle_ms: u64,
    /// With JavaScript: requests a page may make; later ones fail.
    pub max_subrequests: usize,
    /// Layout viewport, CSS pixels.
    pub viewport_width: u32,
    pub viewport_height: u32,
    /// Run the browser in its own sandbox (namespaces and seccomp). Chromium refuses the sandbox to
    /// root; as root pith starts it with `--no-sandbox` and says so in the log.
    pub sandbox: bool,
    /// With JavaScript, the browser's traffic goes through pith's checking proxy, which refuses
    /// loopback, private, link-local and other non-public addresses unless this is true.
    pub allow_private_networks: bool,
    /// Host names exempt from that rule (an internal origin you trust), lower-case, exact: an IP
    /// literal or any other name is still checked, redirects included.
    pub allow_private_hosts: Vec<String>,
    /// Ports the proxy connects to (empty: any).
    pub allowed_ports: Vec<u16>,
    /// Bytes one proxied connection may carry (both directions together).
    pub max_connection_bytes: u64,
    /// Where each browser's own profile directory is made; empty: the system's temporary directory.
    pub profile_root: String,
}

impl Default for RenderConfig {
    fn default() -> Self {
        RenderConfig {
            enabled: true,
            browser: String::new(),
            browsers: 1,
            max_pages: 4,
            recycle_after_pages: 200,
            queue_timeout_ms: 10_000,
            launch_timeout_ms: 20_000,
            call_timeout_ms: 10_000,
            page_timeout_ms: 20_000,
            js_wait_ms: 5_000,
            js_settle_ms: 500,
            max_subrequests: 300,
            viewport_width: 1280,
            viewport_height: 800,
            sandbox: true,
            allow_private_networks: false,
            allow_private_hosts: Vec::new(),
            allowed_ports: vec![80, 443, 8080, 8443],
            max_connection_bytes: 32 * 1024 * 1024,
            profile_root: String::new(),
        }
    }
}

/// Binaries tried in order when `render.browser` is empty: Debian's real executables first (its
/// `/usr/bin` entries are shell wrappers that stay between pith and the browser), then `PATH` names.
const CANDIDATES: &[&str] = &[
    "/usr/lib/chromium/chromium-headless-shell",
    "/usr/lib/chromium/chromium",
    "chromium-headless-shell",
    "chromium",
    "chromium-browser",
    "headless_shell",
    "google-chrome-stable",
    "google-chrome",
];

/// Whether rendering can run, and with which binary.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Availability {
    Ready(PathBuf),
    /// `render.enabled` is false.
    Disabled,
    /// No browser binary was found; the text says where pith looked.
    Missing(String),
}

impl Availability {
    pub fn is_ready(&self) -> bool {
        matches!(self, Availability::Ready(_))
    }

    /// Why rendering is unavailable, in a sentence for a problem document or a log line.
    pub fn reason(&self) -> String {
        match self {
            Availability::Ready(p) => format!("rendering with {}", p.display()),
            Availability::Disabled => "rendering is switched off (render.enabled = false)".to_string(),
            Availability::Missing(why) => why.clone(),
        }
    }
}

impl RenderConfig {
    /// Find the browser this configuration asks for.
    pub fn availability(&self) -> Availability {
        if !self.enabled {
            return Availability::Disabled;
        }
        if !self.browser.is_empty() {
            let p = PathBuf::from(&self.browser);
            return match resolve(&p) {
                Some(found) => Availability::Ready(found),
                None => Availability::Missing(format!("render.browser {} is not an executable file", p.display())),
            };
        }
        for c in CANDIDATES {
            if let Some(found) = resolve(Path::new(c)) {
                return Availability::Ready(found);
            }
        }
        Availability::Missing(format!(
            "no headless browser found (tried {}); install Debian's chromium-headless-shell or set render.browser",
            CANDIDATES.join(", ")
        ))
    }
}

/// An absolute path is checked as it is; a bare name is looked up on `PATH`.
fn resolve(p: &Path) -> Option<PathBuf> {
    if p.components().count() > 1 {
        return is_executable(p).then(|| p.to_path_buf());
    }
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path).map(|d| d.join(p)).find(|c| is_executable(c))
}

fn is_executable(p: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(p).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn disabled_and_missing_are_explained() {
        let off = RenderConfig { enabled: false, ..RenderConfig::default() };
        assert_eq!(off.availability(), Availability::Disabled);
        assert!(off.availability().reason().contains("render.enabled"));
        let wrong = RenderConfig { browser: "/nonexistent/chrome".into(), ..RenderConfig::default() };
        assert!(matches!(wrong.availability(), Availability::Missing(m) if m.contains("/nonexistent/chrome")));
        let sh = RenderConfig { browser: "/bin/sh".into(), ..RenderConfig::default() };
        assert_eq!(sh.availability(), Availability::Ready(PathBuf::from("/bin/sh")));
    }
}
