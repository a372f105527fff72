//! charts (to be written).
