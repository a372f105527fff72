//! Sampling maths below the engine: popularity by rank, alias tables,
//! unit-cost distributions and the standard normal.
//!
//! Pure numeric code over the scenario's distribution types. It imports
//! nothing from the engine, the results or the stores, so each of them may
//! use it.

pub mod alias;
pub mod cache;
pub mod counts;
pub mod normal;
pub mod popularity;
pub mod severity;
