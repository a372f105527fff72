//! Same scenario and seed give identical results on any thread count.

use crate::util::{root, run_threads};

#[test]
fn one_and_two_threads_give_identical_summaries() {
    let text = std::fs::read_to_string(root().join("scenarios/orders-by-date.toml")).unwrap();
    let text = text.replace("trials = 200", "trials = 24");
    let a = run_threads(&text, 1);
    let b = run_threads(&text, 2);
    let ja = keyheat::export::summary_json(&a).unwrap();
    let jb = keyheat::export::summary_json(&b).unwrap();
    assert_eq!(String::from_utf8_lossy(&ja), String::from_utf8_lossy(&jb));
    assert_eq!(
        keyheat::export::partitions_csv(&a).unwrap(),
        keyheat::export::partitions_csv(&b).unwrap()
    );
    assert_eq!(
        keyheat::export::keys_csv(&a).unwrap(),
        keyheat::export::keys_csv(&b).unwrap()
    );
}
