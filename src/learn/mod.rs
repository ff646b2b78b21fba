//! Learning: gradient-boosted trees and the first-use caches the models keep beside themselves.

pub mod gbdt;
pub(crate) mod memo;
