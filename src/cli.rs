//! CLI (to be written).
