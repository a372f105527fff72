use super::*;

#[test]
fn words_split_at_separators_and_case_changes() {
    assert_eq!(words("userSessions"), ["user", "sessions"]);
    assert_eq!(
        words("RATE_LIMIT#{customer}"),
        ["rate", "limit", "customer"]
    );
    assert_eq!(words("OTP#{user}#v2"), ["otp", "user", "v2"]);
    assert_eq!(words("HTTPCache"), ["httpcache"]);
    assert_eq!(words(""), Vec::<String>::new());
}

#[test]
fn durations_read_in_the_largest_unit() {
    assert_eq!(duration(30.0), "30 s");
    assert_eq!(duration(300.0), "5 min");
    assert_eq!(duration(86_400.0), "1 d");
    assert_eq!(duration(7.0 * 86_400.0), "7 d");
}

#[test]
fn size_p99_of_each_distribution() {
    assert_eq!(size_p99(&SizeDist::Fixed(2000.0)), 2000.0);
    assert_eq!(
        size_p99(&SizeDist::Uniform {
            min: 0.0,
            max: 1000.0
        }),
        990.0
    );
    assert_eq!(
        size_p99(&SizeDist::LogNormal {
            median: 10.0,
            p99: 500.0
        }),
        500.0
    );
}

fn parse(text: &str) -> Scenario {
    match Scenario::from_str_at(text, "t.toml") {
        Ok(s) => s,
        Err(e) => panic!("{e}"),
    }
}

#[test]
fn cardinality_multiplies_entities_and_shards_and_counts_buckets_once() {
    let s = parse(
        "schema_version = 1\nname = \"t\"\n[store]\nkind = \"generic\"\n\
         [[entity]]\nname = \"tenant\"\ncount = 40\n\
         [[entity]]\nname = \"status\"\npopularity = { distribution = \"weights\", weights = [1, 1, 1, 1] }\n\
         [[entity]]\nname = \"event\"\npopularity = \"new\"\n\
         [[table]]\nname = \"a\"\npartition_key = \"T#{tenant}#S#{status}\"\nitem_size = \"1KB\"\nbucket = \"1d\"\nshards = 8\n\
         [[table]]\nname = \"b\"\npartition_key = \"E#{event}\"\nitem_size = \"1KB\"\n\
         [[access_pattern]]\nname = \"p\"\ntable = \"a\"\noperation = \"put\"\nrate = 1\n",
    );
    let a = &s.tables[0];
    // the implicit suffixes are part of the key the engine builds
    assert_eq!(
        effective_text(&a.partition_key),
        "T#{tenant}#S#{status}#{bucket}#{shard}"
    );
    assert_eq!(
        key_cardinality_of(&s, a, &a.partition_key),
        40.0 * 4.0 * 8.0
    );
    let b = &s.tables[1];
    assert_eq!(key_cardinality_of(&s, b, &b.partition_key), f64::INFINITY);
    let rows = review(&s);
    let row = |check: &str, subject: &str| {
        rows.iter()
            .find(|c| c.check == check && c.subject == subject)
            .map(|c| (c.status, c.reason.clone()))
    };
    // 1,280 values: between the thresholds
    assert_eq!(row("key_cardinality", "a").map(|r| r.0), Some(Status::Warn));
    assert!(row("key_cardinality", "a").is_some_and(|r| r.1.contains("1,280")));
    assert_eq!(row("key_cardinality", "b").map(|r| r.0), Some(Status::Pass));
    assert!(row("key_cardinality", "b").is_some_and(|r| r.1.contains("unbounded")));
}
