//! keyheat's integration tests: one binary, one module per concern.

mod util;

mod agreement;
mod cassandra;
mod checklist;
mod cli;
mod copies_caches;
mod determinism;
mod firestore_ramp;
mod golden;
mod gsi;
mod hand_arithmetic;
mod hostile;
mod imports;
mod interrupt;
mod key_concepts;
mod mutation;
mod oracles;
mod pricing;
mod redis;
mod replay;
mod replay_redis;
mod report_html;
mod scenario_errors;
mod scenarios;
mod stores_cosmos_firestore;
mod stores_mongo_bigtable;
mod terminal;
mod traces;
