//! keyheat predicts how a NoSQL key design spreads traffic and bytes over a
//! store's partitions before the table exists.
//!
//! The pipeline, one module per stage:
//! [`Scenario::from_path`] → [`store::Model::new`] → [`engine::run`] →
//! [`verdicts::judge`] → [`export`] / [`charts`] / [`report`].
#![deny(missing_docs)]

pub mod charts;
pub mod cli;
pub mod distributions;
pub mod engine;
pub mod error;
pub mod export;
pub mod fit;
pub mod format;
pub mod logs;
pub mod replay;
pub mod report;
pub mod results;
pub mod scenario;
pub mod schema;
pub mod store;
pub mod verdicts;

pub use error::{Error, ErrorKind, Result};
pub use results::RunResults;
pub use scenario::Scenario;
