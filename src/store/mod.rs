//! Store models (to be written).
pub mod settings;
