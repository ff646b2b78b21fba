//! What every command starts from: the engine with the algorithm parameters `PITH_PARAMS__*` set (as
//! `pith serve` reads them), the models of `--models`, and the browser settings.

/// The engine with the embedded models and the algorithm parameters of the embedded defaults as
/// overridden by `PITH_PARAMS__<ALGORITHM>__<KEY>` variables, as `pith serve` reads them.
pub fn engine_from_env() -> Result<pith::Engine, pith::Error> {
    let mut engine = pith::Engine::with_defaults()?;
    engine.params = params_from_env()?;
    Ok(engine)
}

/// [`engine_from_env`] with the models of `dir` (`--models`) over the embedded ones. When the embedded
/// models no longer fit the code (the features changed and `config/` is not retrained yet), the
/// directory's models are read over untrained ones, so that a fold's models can still be inspected.
pub fn engine_with_models(dir: Option<&std::path::Path>) -> Result<pith::Engine, pith::Error> {
    let Some(dir) = dir else { return engine_from_env() };
    let mut engine = engine_from_env().or_else(|_| untrained_engine_from_env())?;
    engine.models.load_dir(dir)?;
    Ok(engine)
}

/// [`engine_from_env`] without the embedded models, for training them anew (`train`, `eval --cv`).
pub fn untrained_engine_from_env() -> Result<pith::Engine, pith::Error> {
    let mut engine = pith::Engine::untrained()?;
    engine.params = params_from_env()?;
    Ok(engine)
}

/// The `[render]` settings as `pith serve` reads them (embedded defaults, `PITH_RENDER__*`).
pub fn render_config_from_env() -> Result<pith::browser::RenderConfig, pith::Error> {
    let config = pith::configuration::Config::load(None).map_err(|e| pith::Error::Config(e.0))?;
    Ok(config.render)
}

fn params_from_env() -> Result<pith::algorithms::Params, pith::Error> {
    let config = pith::configuration::Config::load(None).map_err(|e| pith::Error::Config(e.0))?;
    Ok(config.params)
}
