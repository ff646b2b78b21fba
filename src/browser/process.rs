//! Starting and ending one browser process, so that none outlives pith.
//!
//! * **Own process group.** The browser starts its own group (`setpgid(0, 0)`); it forks a zygote,
//!   renderers and a GPU/utility process into that group, so one `kill(-pgid, SIGKILL)` ends them all.
//!   [`Process`] does this on drop.
//! * **Death signal.** The child asks the kernel for SIGKILL when its parent goes
//!   (`PR_SET_PDEATHSIG`), so `kill -9` of pith takes the browser with it; its helpers then lose their
//!   IPC channel to the browser and exit. The kernel sends that signal when the *thread* that forked
//!   the child ends, not the process: a browser forked from a tokio blocking thread would be killed
//!   when that thread idles out. All browsers are therefore forked from one launcher thread that lives
//!   as long as pith.
//! * **Own profile.** Each browser gets a fresh `--user-data-dir` (mode 0700), removed on drop.
//! * **Pipe, not port.** The DevTools pipe ends are moved to fds 3 and 4 in the child.

use std::fs::File;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, OnceLock, mpsc};

/// A running browser: its process group, and its profile directory.
pub struct Process {
    pid: libc::pid_t,
    child: Mutex<Option<Child>>,
    dir: PathBuf,
}

impl Process {
    pub fn pid(&self) -> u32 {
        self.pid as u32
    }

    /// Kill the browser and everything it started. Safe to call more than once: the group id stays
    /// reserved until the main process is reaped, which only `drop` does.
    pub fn kill(&self) {
        // SAFETY: kill(2) with a negative pid signals the process group; no memory is touched.
        unsafe {
            libc::kill(-self.pid, libc::SIGKILL);
        }
    }

    /// The last lines the browser wrote to stderr (for launch failures).
    pub fn stderr_tail(&self) -> String {
        let text = std::fs::read_to_string(self.dir.join("stderr.log")).unwrap_or_default();
        let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
        lines[lines.len().saturating_sub(4)..].join(" | ")
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        self.kill();
        if let Ok(mut c) = self.child.lock()
            && let Some(mut child) = c.take()
        {
            // SIGKILL cannot be caught: the wait is short.
            let _ = child.wait();
        }
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// A started browser and the parent's ends of its DevTools pipe.
pub struct Started {
    pub process: Process,
    /// Reads what the browser writes to its fd 4.
    pub from_browser: OwnedFd,
    /// Writes to the browser's fd 3.
    pub to_browser: OwnedFd,
}

type SpawnJob = (Command, tokio::sync::oneshot::Sender<std::io::Result<Child>>);

/// The launcher thread's queue (see the module doc).
fn launcher() -> &'static Mutex<mpsc::Sender<SpawnJob>> {
    static LAUNCHER: OnceLock<Mutex<mpsc::Sender<SpawnJob>>> = OnceLock::new();
    LAUNCHER.get_or_init(|| {
        let (tx, rx) = mpsc::channel::<SpawnJob>();
        let spawned = std::thread::Builder::new().name("pith-browser-launcher".into()).spawn(move || {
            for (mut cmd, reply) in rx {
                let _ = reply.send(cmd.spawn());
            }
        });
        if let Err(e) = spawned {
            tracing::error!(error = %e, "cannot start the browser launcher thread");
        }
        Mutex::new(tx)
    })
}

fn pipe() -> std::io::Result<(OwnedFd, OwnedFd)> {
    let mut fds = [0 as RawFd; 2];
    // SAFETY: pipe2 writes two descriptors into the array on success; both are then owned here.
    let rc = unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC) };
    if rc != 0 {
        return Err(std::io::Error::last_os_error());
    }
    // SAFETY: the descriptors were just created and are not owned by anything else.
    Ok(unsafe { (OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1])) })
}

/// A fresh profile directory under `root` (or the temporary directory), private to this user.
fn profile_dir(root: &str) -> std::io::Result<PathBuf> {
    use std::os::unix::fs::DirBuilderExt;
    static N: AtomicU64 = AtomicU64::new(0);
    let base = if root.is_empty() { std::env::temp_dir() } else { PathBuf::from(root) };
    let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.subsec_nanos());
    let dir = base.join(format!("pith-browser-{}-{}-{nanos}", std::process::id(), N.fetch_add(1, Ordering::Relaxed)));
    std::fs::DirBuilder::new().mode(0o700).recursive(true).create(&dir)?;
    Ok(dir)
}

/// Start `binary` with `args` (the DevTools pipe and profile flags are added here).
pub async fn spawn(binary: &Path, args: &[String], profile_root: &str) -> std::io::Result<Started> {
    let dir = profile_dir(profile_root)?;
    let stderr = File::create(dir.join("stderr.log"))?;
    // Commands flow parent → browser through one pipe, replies browser → parent through the other.
    let (browser_reads, parent_writes) = pipe()?;
    let (parent_reads, browser_writes) = pipe()?;
    let (r, w) = (browser_reads.as_raw_fd(), browser_writes.as_raw_fd());
    let mut cmd = Command::new(binary);
    cmd.arg("--remote-debugging-pipe")
        .arg(format!("--user-data-dir={}", dir.join("profile").display()))
        .args(args)
        .arg("about:blank")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::from(stderr))
        .env("HOME", &dir);
    // SAFETY: the closure runs in the forked child before exec and calls only async-signal-safe
    // functions (setpgid, prctl, getppid, fcntl, dup2, close, _exit) on plain integers.
    unsafe {
        let parent = libc::getpid();
        cmd.pre_exec(move || {
            if libc::setpgid(0, 0) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            if libc::getppid() != parent {
                // pith died between fork and prctl.
                libc::_exit(1);
            }
            // Move the pipe ends out of the way first: either may already sit on fd 3 or 4.
            let hr = libc::fcntl(r, libc::F_DUPFD, 10);
            let hw = libc::fcntl(w, libc::F_DUPFD, 10);
            if hr < 0 || hw < 0 || libc::dup2(hr, 3) < 0 || libc::dup2(hw, 4) < 0 {
                return Err(std::io::Error::last_os_error());
            }
            libc::close(hr);
            libc::close(hw);
            Ok(())
        });
    }
    let (tx, rx) = tokio::sync::oneshot::channel();
    launcher()
        .lock()
        .map_err(|_| std::io::Error::other("browser launcher poisoned"))?
        .send((cmd, tx))
        .map_err(|_| std::io::Error::other("browser launcher thread is gone"))?;
    let child = match rx.await {
        Ok(r) => r?,
        Err(_) => return Err(std::io::Error::other("browser launcher thread is gone")),
    };
    // The child's ends are closed here, so a dead browser reads as end-of-file.
    drop(browser_reads);
    drop(browser_writes);
    let pid = child.id() as libc::pid_t;
    Ok(Started {
        process: Process { pid, child: Mutex::new(Some(child)), dir },
        from_browser: parent_reads,
        to_browser: parent_writes,
    })
}

/// Process ids in the group `pgid` that are still alive (zombies excluded), from `/proc`.
pub fn group_members(pgid: u32) -> Vec<u32> {
    let Ok(entries) = std::fs::read_dir("/proc") else { return Vec::new() };
    entries
        .filter_map(|e| e.ok()?.file_name().to_str()?.parse::<u32>().ok())
        .filter(|pid| {
            let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
            // Fields after the parenthesised command: state, ppid, pgrp, ...
            let rest = stat.rsplit_once(')').map_or("", |(_, r)| r);
            let mut f = rest.split_whitespace();
            let state = f.next().unwrap_or("Z");
            let pgrp = f.nth(1).and_then(|v| v.parse::<u32>().ok());
            state != "Z" && pgrp == Some(pgid)
        })
        .collect()
}
