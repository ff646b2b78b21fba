//! The engines Python extracts with: the shared default one, and those an `Extractor` builds from its
//! models directory, parameters and site rules.
//!
//! Building one parses the embedded models (tens of milliseconds), so the module-level functions share
//! one, built on first use, and an `Extractor` keeps its own for as many calls as it is used for.

use std::path::Path;
use std::sync::OnceLock;

use figment::Figment;
use figment::providers::Serialized;
use pith::algorithms::Params;

use crate::errors::{Failure, PANIC, panic_message};

/// What an `Extractor` is built from (all optional: the defaults are `pith extract`'s).
#[derive(Debug, Default)]
pub struct Recipe<'a> {
    /// A directory of trained models, as `pith extract --models DIR` reads it.
    pub models: Option<&'a Path>,
    /// `[params]` overrides as JSON (`{"auto": {"no_article_text": "lead"}}`).
    pub params: Option<serde_json::Value>,
    /// A directory of site rules (`*.toml`), as `pith extract --sites DIR` reads it.
    pub sites: Option<&'a Path>,
}

/// The engine `pith extract` uses when no `PITH_*` variable is set: embedded models and site rules,
/// the algorithm parameters of the embedded `config/default.toml`. Built once, on first use.
static DEFAULT: OnceLock<pith::Engine> = OnceLock::new();

/// The default engine, when it has been built.
pub fn default_if_built() -> Option<&'static pith::Engine> {
    DEFAULT.get()
}

/// The default engine, built now if it was not yet.
pub fn default_engine() -> Result<&'static pith::Engine, Failure> {
    if let Some(engine) = DEFAULT.get() {
        return Ok(engine);
    }
    // Two threads may both build one the first time; one is kept, which is simpler than making the
    // second wait on a lock that the first holds for as long as parsing the models takes.
    let built = build(&Recipe::default())?;
    Ok(DEFAULT.get_or_init(|| built))
}

/// An engine from a recipe. Panics inside pith while loading become a failure, not an abort.
pub fn build(recipe: &Recipe<'_>) -> Result<pith::Engine, Failure> {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| build_unguarded(recipe)))
        .unwrap_or_else(|payload| Err(Failure::new(PANIC, panic_message(payload.as_ref()))))
}

fn build_unguarded(recipe: &Recipe<'_>) -> Result<pith::Engine, Failure> {
    let mut engine = pith::Engine::with_defaults()?;
    engine.params = params(recipe.params.clone())?;
    if let Some(dir) = recipe.models {
        // `load_dir` takes a missing file to mean "keep the embedded model", so a mistyped directory
        // would silently give the embedded models: say so instead.
        if !dir.is_dir() {
            return Err(pith::Error::Config(format!("models: {} is not a directory", dir.display())).into());
        }
        engine.models.load_dir(dir)?;
    }
    if let Some(dir) = recipe.sites {
        engine.templates.add_dir(dir)?;
    }
    Ok(engine)
}

/// The algorithm parameters: the embedded `config/default.toml`'s `[params]` table (the values
/// `pith extract` starts from), with `overrides` merged over them key by key as figment merges the
/// configuration's layers. A misspelt key or a wrong type is an error naming the key.
pub fn params(overrides: Option<serde_json::Value>) -> Result<Params, Failure> {
    let defaults = Params::configured()?;
    let mut layers = Figment::from(Serialized::defaults(defaults));
    if let Some(overrides) = overrides {
        if !overrides.is_object() {
            return Err(pith::Error::Config("params must be a dict of algorithm tables".into()).into());
        }
        layers = layers.merge(Serialized::defaults(overrides));
    }
    layers.extract::<Params>().map_err(|e| pith::Error::Config(format!("params: {e}")).into())
}
