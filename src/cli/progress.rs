//! The progress bar of long commands (`batch`, `eval`, `train`, `bench`): drawn on stderr when it is a
//! terminal, absent otherwise, so pipes, logs and CI see only the commands' own output.

use std::io::IsTerminal;
use std::time::Duration;

use indicatif::{ProgressBar, ProgressState, ProgressStyle};

/// A bar (known total) or a spinner, on stderr, when stderr is a terminal.
pub fn bar(total: Option<u64>) -> Option<ProgressBar> {
    if !std::io::stderr().is_terminal() {
        return None;
    }
    let b = ProgressBar::new(total.unwrap_or(0));
    b.set_style(style(total.is_some()));
    b.enable_steady_tick(Duration::from_millis(200));
    Some(b)
}

fn style(bounded: bool) -> ProgressStyle {
    let template = if bounded {
        "{prefix} {bar:30} {pos}/{len} pages, {rate}, {msg} ETA {eta}"
    } else {
        "{prefix} {spinner} {pos} pages, {rate}, {msg} {elapsed}"
    };
    let style = ProgressStyle::with_template(template).unwrap_or_else(|_| ProgressStyle::default_bar());
    // Pages per second in whole numbers (indicatif's own `{per_sec}` prints four decimals).
    style.with_key("rate", |s: &ProgressState, w: &mut dyn std::fmt::Write| {
        let _ = write!(w, "{:.0} pages/s", s.per_sec());
    })
}

/// Show the library's progress reports ([`pith::lab::progress`]) on a terminal: each phase restarts the
/// bar under the phase's name. Returns the bar so the command can clear it when it is done.
pub fn observe_library() -> Option<ProgressBar> {
    let b = bar(None)?;
    pith::lab::progress::observe(Box::new(Phases(b.clone())));
    Some(b)
}

/// Take the bar off the terminal (before the command prints its results).
pub fn clear(bar: Option<ProgressBar>) {
    if let Some(b) = bar {
        b.finish_and_clear();
    }
}

struct Phases(ProgressBar);

impl pith::lab::progress::Observer for Phases {
    fn phase(&self, name: &str, total: Option<u64>) {
        // A phase without a count (fitting trees) shows only its name and the time it has run.
        let style = match total {
            Some(_) => style(true),
            None => ProgressStyle::with_template("{prefix} {spinner} {elapsed}").unwrap_or_else(|_| style(false)),
        };
        self.0.set_style(style);
        self.0.set_length(total.unwrap_or(0));
        self.0.set_prefix(name.to_string());
        self.0.reset();
    }

    fn advance(&self, n: u64) {
        self.0.inc(n);
    }
}
