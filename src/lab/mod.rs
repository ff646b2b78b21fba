//! The lab: evaluation, training, benchmarks, hostile inputs, and the labelled datasets they read.

pub mod adversarial;
pub mod bench;
pub mod dataset;
pub mod eval;
pub mod progress;
pub mod train;
