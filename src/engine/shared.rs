//! The [`Engine`]: what is loaded once (the algorithms' parameters, the trained models, the site
//! rules, the limits) and shared by every request; the stages are its methods, one file each.

use super::limits::Limits;
use super::models::Models;
use crate::algorithms::Params;
use crate::algorithms::template::Templates;
use crate::error::Error;

/// Everything loaded once and shared.
#[derive(Debug, Clone)]
pub struct Engine {
    pub params: Params,
    pub models: Models,
    pub templates: Templates,
    pub limits: Limits,
}

impl Engine {
    /// An engine with the embedded models, the embedded site rules and the papers' parameters.
    pub fn with_defaults() -> Result<Engine, Error> {
        Ok(Engine {
            params: Params::default(),
            models: Models::embedded()?,
            templates: Templates::embedded()?,
            limits: Limits::default(),
        })
    }

    /// An engine with no trained models (the papers' parameters and the embedded site rules): the
    /// starting point for training, which must not depend on the models it is about to replace.
    pub fn untrained() -> Result<Engine, Error> {
        Ok(Engine {
            params: Params::default(),
            models: Models::untrained(),
            templates: Templates::embedded()?,
            limits: Limits::default(),
        })
    }
}
