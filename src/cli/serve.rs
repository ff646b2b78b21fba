//! `pith serve`: load the configuration, start a Tokio runtime, run the HTTP service.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;

#[derive(Debug, Args)]
pub struct ServeArgs {
    /// A TOML file overriding config/default.toml (any subset of its keys); PITH_* variables win over it.
    #[arg(long)]
    pub config: Option<PathBuf>,
    /// Listen address (overrides server.listen and PITH_SERVER__LISTEN).
    #[arg(long)]
    pub listen: Option<SocketAddr>,
}

pub fn run(a: ServeArgs) -> Result<ExitCode, pith::Error> {
    let mut config = pith::configuration::Config::load(a.config.as_deref()).map_err(|e| pith::Error::Config(e.0))?;
    if let Some(addr) = a.listen {
        config.server.listen = addr;
    }
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build()?;
    match runtime.block_on(pith::server::serve(config)) {
        Ok(()) => Ok(ExitCode::SUCCESS),
        Err(e) => {
            eprintln!("pith serve: {e}");
            Ok(ExitCode::FAILURE)
        }
    }
}
