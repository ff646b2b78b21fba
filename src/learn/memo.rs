//! A value a model computes from itself on first use (a faster layout of its trees, where its inputs
//! sit in the pipeline's list): kept beside the model's fields, but no part of what the model is, so
//! two models with equal fields compare equal whatever either has worked out so far.

use std::sync::OnceLock;

#[derive(Debug, Clone)]
pub(crate) struct Memo<T>(OnceLock<T>);

impl<T> Default for Memo<T> {
    fn default() -> Self {
        Memo(OnceLock::new())
    }
}

impl<T> Memo<T> {
    /// The value, computed by `f` the first time.
    pub(crate) fn get_or_init(&self, f: impl FnOnce() -> T) -> &T {
        self.0.get_or_init(f)
    }
}

impl<T> PartialEq for Memo<T> {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}
