//! Unit parsing (to be written).
