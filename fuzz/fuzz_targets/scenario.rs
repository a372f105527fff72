//! Fuzzes `Scenario::from_str_at` and the store validation
//! (`Model::for_scenario`): any text must give a scenario or an error that
//! names `fuzz.toml:<line>:<column>` with line and column ≥ 1 — never a
//! panic, an abort or a hang.
#![no_main]

use keyheat::{ErrorKind, Scenario};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let checked = Scenario::from_str_at(text, "fuzz.toml")
        .and_then(|s| keyheat::store::Model::for_scenario(&s).map(|_| ()));
    if let Err(e) = checked {
        if let ErrorKind::Scenario { line, column, .. } = e.kind() {
            assert!(*line >= 1 && *column >= 1, "not located: {e}");
            assert!(e
                .to_string()
                .starts_with(&format!("fuzz.toml:{line}:{column}: ")));
        }
    }
});
