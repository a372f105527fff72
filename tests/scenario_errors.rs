//! Scenario parsing: golden error messages (file:line:column, key, message,
//! fix), a complete scenario parsed into expected values, variant and sweep
//! expansion, and a no-panic property test.

use keyheat::scenario::{
    AccessPattern, Checks, Consistency, CountDist, Entity, Index, KeyTemplate, Operation,
    Popularity, Projection, Scenario, SettingPosition, SettingValue, ShardStrategy, Simulation,
    SizeDist, StoreConfig, StoreKind, Table, TemplatePart,
};
use keyheat::ErrorKind;
use proptest::prelude::*;
use std::collections::BTreeMap;

const FULL: &str = include_str!("fixtures/scenarios/full.toml");
const SWEEP: &str = include_str!("fixtures/scenarios/sweep.toml");

/// A small valid scenario; tests change one line of it.
const BASE: &str = r#"schema_version = 1
name = "errs"

[store]
kind = "dynamodb"

[[entity]]
name = "customer"
count = 1000

[[table]]
name = "orders"
partition_key = "CUSTOMER#{customer}"
item_size = "2KB"

[[access_pattern]]
name = "Create order"
table = "orders"
operation = "put"
rate = 50
by = "customer"
"#;

/// BASE with the first `from` replaced by `to`.
fn base_with(from: &str, to: &str) -> String {
    assert!(BASE.contains(from), "BASE lacks {from:?}");
    BASE.replacen(from, to, 1)
}

/// The full error message for `text`, which must be invalid.
/// The error of a scenario text: from the parser, or from the store model
/// that checks the `[store]` settings of the base design and its variants.
fn error(text: &str) -> String {
    let loaded = Scenario::from_str_at(text, "s.toml")
        .and_then(|s| keyheat::store::Model::for_scenario(&s).map(|_| s));
    match loaded {
        Ok(_) => panic!("expected an error for:\n{text}"),
        Err(e) => {
            assert!(e.is_bad_input());
            e.to_string()
        }
    }
}

fn lit(s: &str) -> TemplatePart {
    TemplatePart::Literal(s.to_string())
}

fn ent(s: &str) -> TemplatePart {
    TemplatePart::Entity(s.to_string())
}

fn tpl(text: &str, parts: Vec<TemplatePart>) -> KeyTemplate {
    KeyTemplate {
        text: text.to_string(),
        parts,
    }
}

#[test]
fn base_is_valid() {
    let s = Scenario::from_str_at(BASE, "s.toml").unwrap();
    assert_eq!(s.name, "errs");
    assert_eq!(s.access_patterns[0].rate_per_s, 50.0);
    assert!(s.variants.is_empty());
}

// ---- golden messages: one per specific error ----

#[test]
fn zero_rate() {
    assert_eq!(
        error(&base_with("rate = 50", "rate = 0")),
        "s.toml:20:8: access_pattern.Create order.rate: rate must be > 0, found `0`\n  \
         fix: write a positive rate such as rate = 50 or rate = \"3M/day\" (remove the pattern if it has no traffic)"
    );
}

#[test]
fn negative_rate_with_unit() {
    assert_eq!(
        error(&base_with("rate = 50", "rate = \"-5/s\"")),
        "s.toml:20:8: access_pattern.Create order.rate: rate must be > 0, found `\"-5/s\"`\n  \
         fix: write a positive rate such as rate = 50 or rate = \"3M/day\" (remove the pattern if it has no traffic)"
    );
}

#[test]
fn template_naming_an_undeclared_entity() {
    // the column is that of `{custmer}` inside the string
    assert_eq!(
        error(&base_with("CUSTOMER#{customer}", "CUSTOMER#{custmer}")),
        "s.toml:13:27: table.orders.partition_key: template `CUSTOMER#{custmer}` names `{custmer}`, which is not a \
         declared entity (declared: `customer`); did you mean `{customer}`?\n  \
         fix: write {customer}, or declare an [[entity]] named \"custmer\""
    );
    assert_eq!(
        error(&base_with("CUSTOMER#{customer}", "CUSTOMER#{widget}")),
        "s.toml:13:27: table.orders.partition_key: template `CUSTOMER#{widget}` names `{widget}`, which is not a \
         declared entity (declared: `customer`)\n  \
         fix: declare an [[entity]] named \"widget\", or use one of `customer`, `bucket`, `shard`, `time`, `id`"
    );
}

#[test]
fn unbalanced_braces() {
    assert_eq!(
        error(&base_with("CUSTOMER#{customer}", "CUSTOMER#{customer")),
        "s.toml:13:27: table.orders.partition_key: unbalanced braces in template `CUSTOMER#{customer`: `{` is never \
         closed\n  fix: close the placeholder with `}`"
    );
}

#[test]
fn bucket_placeholder_without_bucket() {
    assert_eq!(
        error(&base_with("CUSTOMER#{customer}", "CUSTOMER#{customer}#{bucket}")),
        "s.toml:13:38: table.orders.partition_key: template `CUSTOMER#{customer}#{bucket}` uses {bucket} but the \
         table has no bucket\n  fix: set bucket = \"1d\" (a time bucket) or bucket = { items = 100000 } (a count bucket) in this [[table]], or remove {bucket}"
    );
}

#[test]
fn pattern_on_an_undeclared_table() {
    assert_eq!(
        error(&base_with("table = \"orders\"", "table = \"order\"")),
        "s.toml:18:9: access_pattern.Create order.table: table `order` is not declared (declared: `orders`); did you \
         mean `orders`?\n  fix: write table = \"orders\""
    );
    assert_eq!(
        error(&base_with("table = \"orders\"", "table = \"orders.by_stat\"")),
        "s.toml:18:9: access_pattern.Create order.table: table `orders` has no index `by_stat` (declared: none)\n  \
         fix: declare it with a [[table.index]] under table `orders`"
    );
}

#[test]
fn p99_below_the_median() {
    let text = base_with(
        "item_size = \"2KB\"",
        "item_size = { distribution = \"lognormal\", median = \"6KB\", p99 = \"1.2KB\" }",
    );
    assert_eq!(
        error(&text),
        "s.toml:14:65: table.orders.item_size.p99: p99 `\"1.2KB\"` (1200 B) is below the median `\"6KB\"` (6000 B)\n  \
         fix: a log-normal's p99 must be ≥ its median: raise p99 or lower median (were they swapped?)"
    );
}

#[test]
fn duplicate_names() {
    let table =
        format!("{BASE}\n[[table]]\nname = \"orders\"\npartition_key = \"X\"\nitem_size = 1\n");
    assert_eq!(
        error(&table),
        "s.toml:24:8: table.orders.name: duplicate table name `orders` (first declared on line 12)\n  \
         fix: give each table a different name"
    );
    let entity = base_with(
        "[[table]]",
        "[[entity]]\nname = \"customer\"\ncount = 5\n\n[[table]]",
    );
    assert_eq!(
        error(&entity),
        "s.toml:12:8: entity.customer.name: duplicate entity name `customer` (first declared on line 8)\n  \
         fix: give each entity a different name"
    );
    let pattern = format!(
        "{BASE}\n[[access_pattern]]\nname = \"Create order\"\ntable = \"orders\"\noperation = \"get\"\nrate = 1\n"
    );
    assert_eq!(
        error(&pattern),
        "s.toml:24:8: access_pattern.Create order.name: duplicate access pattern name `Create order` (first declared \
         on line 17)\n  fix: give each access pattern a different name"
    );
    let variant = format!(
        "{BASE}\n[[variant]]\nname = \"a\"\nset = {{ \"table.orders.shards\" = 2 }}\n\
         [[variant]]\nname = \"a\"\nset = {{ \"table.orders.shards\" = 4 }}\n"
    );
    assert_eq!(
        error(&variant),
        "s.toml:27:8: variant.a: duplicate variant name `a` (first on line 24)\n  fix: give each variant a different name"
    );
}

/// "base" is the scenario's own design in every output and "none" the
/// recommendation that nothing passes: a variant of either name would show
/// as two rows of one name (a new user's variant `base` did).
#[test]
fn a_variant_named_as_the_outputs_name_the_base_or_none() {
    for (name, meaning) in [
        ("base", "the scenario's own design"),
        ("none", "a recommendation that no design passes"),
    ] {
        let variant = format!(
            "{BASE}\n[[variant]]\nname = \"{name}\"\nset = {{ \"table.orders.shards\" = 2 }}\n"
        );
        assert_eq!(
            error(&variant),
            format!(
                "s.toml:24:8: variant.{name}: a variant cannot be named `{name}`: every output already uses \
                 `{name}` for {meaning}\n  fix: give the variant another name, e.g. name = \"{name}-2\""
            )
        );
    }
}

#[test]
fn by_naming_an_undeclared_entity() {
    assert_eq!(
        error(&base_with("by = \"customer\"", "by = \"custommer\"")),
        "s.toml:21:6: access_pattern.Create order.by: `custommer` is not a declared entity (declared: `customer`); \
         did you mean `customer`?\n  fix: write by = \"customer\""
    );
}

#[test]
fn string_where_a_number_is_expected() {
    assert_eq!(
        error(&base_with("count = 1000", "count = \"1000\"")),
        "s.toml:9:9: entity.customer.count: expected an integer, found string `\"1000\"`\n  fix: write count = 1000 (no quotes)"
    );
    assert_eq!(
        error(&format!("{BASE}\n[simulation]\ntrials = \"200\"\n")),
        "s.toml:24:10: simulation.trials: expected an integer, found string `\"200\"`\n  fix: write trials = 200 (no quotes)"
    );
    assert_eq!(
        error(&base_with(
            "count = 1000",
            "count = 1000\npopularity = { distribution = \"zipf\", exponent = \"0.6\" }"
        )),
        "s.toml:10:50: entity.customer.popularity.exponent: expected a number, found string `\"0.6\"`\n  fix: write exponent = 0.6 (no quotes)"
    );
    assert_eq!(
        error(&base_with("operation = \"put\"", "operation = 5")),
        "s.toml:19:13: access_pattern.Create order.operation: expected one of `get`, `query`, `scan`, `put`, \
         `update`, `delete` or `append`, found integer `5`\n  fix: write operation = \"get\""
    );
}

#[test]
fn toml_syntax_errors() {
    assert_eq!(
        error(&base_with("kind = \"dynamodb\"", "kind = dynamodb")),
        "s.toml:5:8: syntax: invalid TOML: string values must be quoted, expected literal string\n  \
         fix: fix the TOML syntax here (see https://toml.io/en/v1.0.0); strings need quotes, e.g. kind = \"dynamodb\""
    );
    assert_eq!(
        error(&base_with("rate = 50", "rate = 50\nrate = 60")),
        "s.toml:21:1: syntax: invalid TOML: duplicate key `rate`\n  \
         fix: remove or rename the repeated key (each key appears once per table)"
    );
}

#[test]
fn unknown_keys_suggest_the_closest() {
    assert_eq!(
        error(&base_with("item_size = \"2KB\"", "item_size = \"2KB\"\nshard = 4")),
        "s.toml:15:1: table.orders.shard: unknown key `shard`; did you mean `shards`?\n  fix: rename `shard` to `shards`"
    );
    assert_eq!(
        error(&base_with("name = \"errs\"", "name = \"errs\"\n[[tables]]\nname = \"x\"")),
        "s.toml:3:3: tables: unknown key `tables`; did you mean `table`?\n  fix: rename `tables` to `table`"
    );
    assert_eq!(
        error(&base_with("kind = \"dynamodb\"", "kind = \"dynamodb\"\nread_capacty = 5")),
        "s.toml:6:1: store.read_capacty: unknown key `read_capacty`; did you mean `read_capacity`?\n  \
         fix: rename `read_capacty` to `read_capacity`"
    );
    let popularity = "count = 1000\npopularity = { distribution = \"zipf\", exponnent = 1 }";
    assert_eq!(
        error(&base_with("count = 1000", popularity)),
        "s.toml:10:39: entity.customer.popularity.exponnent: unknown key `exponnent`; did you mean `exponent`?\n  \
         fix: rename `exponnent` to `exponent`"
    );
}

/// A store's own word for a setting names keyheat's (helper-77 wrote
/// ScyllaDB's `shards_per_node` and read the list of all 19 keys).
#[test]
fn a_stores_own_word_for_a_setting_names_keyheats() {
    assert_eq!(
        error(&base_with("kind = \"dynamodb\"", "kind = \"scylladb\"\nshards_per_node = 16")),
        "s.toml:6:1: store.shards_per_node: unknown key `shards_per_node`; keyheat calls it `cores_per_node` \
         (ScyllaDB runs one shard per core)\n  fix: rename `shards_per_node` to `cores_per_node`"
    );
    // Not offered where the store has no such setting.
    assert!(error(&base_with(
        "kind = \"dynamodb\"",
        "kind = \"dynamodb\"\nrf = 3"
    ))
    .starts_with("s.toml:6:1: store.rf: unknown key `rf`"));
    assert!(!error(&base_with(
        "kind = \"dynamodb\"",
        "kind = \"dynamodb\"\nrf = 3"
    ))
    .contains("replication_factor"));
}

/// A share over 1 but under 10 may be a percentage or a slipped decimal
/// point: both are offered (helper-77's `hot_share = 1.5` was told 0.015
/// alone).
#[test]
fn a_share_under_10_offers_both_readings() {
    let e = error(&base_with(
        "count = 1000",
        "count = 1000\npopularity = { distribution = \"hotspot\", hot_fraction = 0.05, hot_share = 1.5 }",
    ));
    assert!(
        e.ends_with("fix: write hot_share = 0.015 if you meant 1.5%, or hot_share = 0.15 for 15% (a fraction of 1)"),
        "{e}"
    );
}

#[test]
fn unknown_keys_list_the_accepted_ones() {
    assert_eq!(
        error(&base_with("item_size = \"2KB\"", "item_size = \"2KB\"\ncolour = 4")),
        "s.toml:15:1: table.orders.colour: unknown key `colour`\n  fix: [[table]] accepts `name`, `partition_key`, \
         `sort_key`, `item_size`, `shards`, `shard_strategy`, `shard_by`, `bucket`, `ttl`, `initial_items`, `index`, \
         `cache`, `coalesce`; a store's settings (`keyheat schema` lists each kind's) go under [store], for every \
         table"
    );
}

#[test]
fn store_kinds_and_settings() {
    assert_eq!(
        error(&base_with("kind = \"dynamodb\"", "kind = \"dynamo\"")),
        "s.toml:5:8: store.kind: unknown value `dynamo`; did you mean `dynamodb`?\n  fix: write kind = \"dynamodb\""
    );
    assert_eq!(
        error(&base_with("kind = \"dynamodb\"", "kind = \"cassandra\"\nreplication = 3")),
        "s.toml:6:1: store.replication: unknown key `replication`; did you mean `replication_factor`?\n  \
         fix: rename `replication` to `replication_factor`"
    );
    // a kind with every setting left at its default is accepted on its own
    let s = Scenario::from_str_at(
        &base_with("kind = \"dynamodb\"", "kind = \"cassandra\""),
        "s.toml",
    )
    .unwrap();
    assert_eq!(s.store.kind, StoreKind::Cassandra);
    assert!(s.store.settings.is_empty());
}

#[test]
fn schema_version_and_name() {
    assert_eq!(
        error(&BASE.replacen("schema_version = 1\n", "", 1)),
        "s.toml:1:1: schema_version: missing `schema_version` in the top level\n  \
         fix: add schema_version = 1 as the first line of the file"
    );
    // An empty file (or one of comments only) says so.
    for empty in ["", "\n# a design to come\n\n"] {
        assert_eq!(
            error(empty),
            "s.toml:1:1: schema_version: the file holds no settings (it is empty or only comments)\n  \
             fix: start from a shipped scenario (e.g. scenarios/orders-by-customer.toml) or the scenario format in README.md; its first line is schema_version = 1"
        );
    }
    assert_eq!(
        error(&base_with("schema_version = 1", "schema_version = 2")),
        "s.toml:1:18: schema_version: schema_version 2 is not supported; this keyheat reads schema version 1\n  \
         fix: write schema_version = 1 and check the file against the scenario reference in README.md (or `keyheat schema`)"
    );
    assert_eq!(
        error(&base_with("name = \"errs\"", "name = \"orders by customer\"")),
        "s.toml:2:8: name: `orders by customer` is not a safe folder name: use letters, digits, `-`, `_` and `.` \
         only\n  fix: write name = \"orders-by-customer\""
    );
}

#[test]
fn missing_required_keys_point_at_the_section() {
    assert_eq!(
        error(&base_with("partition_key = \"CUSTOMER#{customer}\"\n", "")),
        "s.toml:11:1: table.orders.partition_key: missing `partition_key` in [[table]]\n  \
         fix: add partition_key = \"CUSTOMER#{customer}\""
    );
    assert_eq!(
        error(&base_with("operation = \"put\"", "operation = \"append\"")),
        "s.toml:16:1: access_pattern.Create order.element_size: missing `element_size` in [[access_pattern]]\n  \
         fix: add element_size = \"200B\" (the bytes each append adds to the item)"
    );
}

#[test]
fn unit_errors_name_the_accepted_suffixes() {
    assert_eq!(
        error(&base_with("item_size = \"2KB\"", "item_size = \"10 parsecs\"")),
        "s.toml:14:13: table.orders.item_size: `10 parsecs` is not a size: unknown unit `parsecs`; a size is a \
         number of bytes, optionally followed by `B`, `KB`, `kB`, `MB`, `GB`, `TB`, `PB`, `KiB`, `MiB`, `GiB`, `TiB` \
         or `PiB` (e.g. \"1.2KB\", \"4KiB\")\n  fix: write item_size = \"2KB\""
    );
    assert!(
        error(&base_with("item_size = \"2KB\"", "item_size = \"2kb\""))
            .contains("unknown unit `kb` (did you mean `KB`?)")
    );
}

#[test]
fn field_rules() {
    assert_eq!(
        error(&format!("{BASE}\n[simulation]\nwindow = \"2h\"\n")),
        "s.toml:24:10: simulation.window: window (7200 s) is longer than duration (3600 s)\n  \
         fix: make window ≤ duration, e.g. window = \"1s\" with duration = \"1h\""
    );
    assert_eq!(
        error(&base_with("by = \"customer\"", "by = \"customer\"\nelement_size = \"1KB\"")),
        "s.toml:22:1: access_pattern.Create order.element_size: element_size applies only to operation = \"append\", \
         not \"put\"\n  fix: remove element_size, or set operation = \"append\""
    );
    assert_eq!(
        error(&base_with("by = \"customer\"", "by = \"customer\"\nrange = \"7d\"")),
        "s.toml:22:1: access_pattern.Create order.range: range applies only to operation = \"query\", not \"put\"\n  \
         fix: remove range, or set operation = \"query\""
    );
    let weights = "count = 2\npopularity = { distribution = \"weights\", weights = [1, 2, 3] }";
    assert_eq!(
        error(&base_with("count = 1000", weights)),
        "s.toml:9:9: entity.customer.count: count 2 does not match the 3 weights given\n  \
         fix: write count = 3 or remove count (it defaults to the number of weights)"
    );
    let hotspot = "count = 1000\npopularity = { distribution = \"hotspot\", hot_fraction = 1.5, hot_share = 0.8 }";
    assert_eq!(
        error(&base_with("count = 1000", hotspot)),
        "s.toml:10:57: entity.customer.popularity.hot_fraction: must be in (0, 1), found `1.5`\n  \
         fix: write hot_fraction = 0.2 (the fraction of instances that are hot)"
    );
    assert_eq!(
        error(&format!("{BASE}\n[checks]\nheadroom = 1.5\n")),
        "s.toml:24:12: checks.headroom: must be in (0, 1], found `1.5`\n  \
         fix: write headroom = 0.8 (a design passes when p95 peak utilization ≤ headroom)"
    );
    assert_eq!(
        error(&base_with("count = 1000", "count = 0")),
        "s.toml:9:9: entity.customer.count: must be between 1 and 1,000,000,000,000, found 0\n  fix: write count = 1_000_000"
    );
}

/// A stray minus sign, a spelled-out unit or a percentage is fixed with the
/// user's own number (new users' `count = -42`, `item_size = "-3KB"`,
/// `"44 bytes"` and `hot_share = 37.5` were offered the stock 1_000_000,
/// "2KB" and 0.8); so are a fractional count (rounded) and one over the
/// most (that most: a new user's 2_000_000.5 and 2·10¹⁵ were offered
/// 1_000_000 too).
#[test]
fn a_stray_sign_or_spelled_unit_is_fixed_with_the_users_number() {
    assert_eq!(
        error(&base_with("count = 1000", "count = -42")),
        "s.toml:9:9: entity.customer.count: must be between 1 and 1,000,000,000,000, found -42\n  fix: write count = 42"
    );
    assert_eq!(
        error(&base_with("count = 1000", "count = 2000000.4")),
        "s.toml:9:9: entity.customer.count: expected a whole number, found float `2000000.4`\n  fix: write count = 2_000_000"
    );
    assert_eq!(
        error(&base_with("count = 1000", "count = 2_000_000_000_000_000")),
        "s.toml:9:9: entity.customer.count: must be between 1 and 1,000,000,000,000, found 2000000000000000\n  fix: write count = 1_000_000_000_000 at most"
    );
    assert_eq!(
        error(&base_with("item_size = \"2KB\"", "item_size = \"-3KB\"")),
        "s.toml:14:13: table.orders.item_size: must be > 0, found `\"-3KB\"`\n  fix: write item_size = \"3KB\""
    );
    assert!(error(&base_with(
        "item_size = \"2KB\"",
        "item_size = \"44 bytes\""
    ))
    .ends_with("fix: write item_size = \"44B\""),);
    assert!(error(&base_with(
        "item_size = \"2KB\"",
        "item_size = \"1,500 bytes\""
    ))
    .ends_with("fix: write item_size = \"1500B\""),);
    // A fraction written as a percentage.
    let hotspot = "count = 1000\npopularity = { distribution = \"hotspot\", hot_fraction = 0.01, hot_share = 37.5 }";
    assert!(error(&base_with("count = 1000", hotspot))
        .ends_with("fix: write hot_share = 0.375 (a fraction: 37.5% is 0.375)"));
    // Nothing to salvage: the stock example stays.
    assert!(error(&base_with("item_size = \"2KB\"", "item_size = 0"))
        .ends_with("fix: write item_size = \"2KB\""));
    // A growth rate in words (a new user's "4% per month" was offered 5%).
    let growth = |g: &str| error(&format!("{BASE}\n[simulation]\ngrowth = \"{g}\"\n"));
    assert!(growth("4% per month").ends_with("fix: write it like growth = \"4%/month\""));
    assert!(growth("20% a year").ends_with("fix: write it like growth = \"20%/year\""));
    assert!(growth("fast").ends_with("fix: write it like growth = \"5%/month\""));
}

/// `trials` in the file takes what `--trials` takes: at least 2 (a new
/// user's `trials = 1` ran and printed a zero-width interval).
#[test]
fn one_trial_is_refused_in_the_file_as_on_the_command_line() {
    assert_eq!(
        error(&format!("{BASE}\n[simulation]\ntrials = 1\n")),
        "s.toml:24:10: simulation.trials: must be between 2 and 100,000, found 1\n  fix: write trials = 200"
    );
}

#[test]
fn variant_path_naming_nothing() {
    let variant = |set: &str| format!("{BASE}\n[[variant]]\nname = \"a\"\nset = {{ {set} }}\n");
    assert_eq!(
        error(&variant("\"table.order.shards\" = 2")),
        "s.toml:25:9: variant.a.set.\"table.order.shards\": `table.order.shards` names nothing: there is no table \
         named `order` (declared: `orders`); did you mean `orders`?\n  fix: write \"table.orders.shards\""
    );
    assert_eq!(
        error(&variant("\"table.orders.shard\" = 2")),
        "s.toml:25:9: variant.a.set.\"table.orders.shard\": `table.orders.shard` names nothing: table `orders` has \
         no field `shard`; did you mean `shards`?\n  fix: write \"table.orders.shards\""
    );
    assert_eq!(
        error(&variant("\"tables.orders.shards\" = 2")),
        "s.toml:25:9: variant.a.set.\"tables.orders.shards\": `tables.orders.shards` names nothing: unknown section \
         `tables`; did you mean `table`?\n  fix: write \"table.orders.shards\""
    );
    assert_eq!(
        error(&variant("table.orders.shards = 2")),
        "s.toml:25:9: variant.a.set.\"table\": a path must be one quoted key: unquoted dots make nested tables\n  \
         fix: quote the whole path, e.g. { \"table.orders.shards\" = 16 }"
    );
    assert_eq!(
        error(&format!("{BASE}\n[sweep]\n\"table.orders.shardz\" = [1, 2]\n")),
        "s.toml:24:1: sweep.\"table.orders.shardz\": `table.orders.shardz` names nothing: table `orders` has no \
         field `shardz`; did you mean `shards`?\n  fix: write \"table.orders.shards\""
    );
}

#[test]
fn invalid_variant_values_point_at_the_variant() {
    let variant = |set: &str| format!("{BASE}\n[[variant]]\nname = \"a\"\nset = {{ {set} }}\n");
    assert_eq!(
        error(&variant("\"table.orders.shards\" = 0")),
        "s.toml:25:33: table.orders.shards: variant `a` (line 23): must be between 1 and 100,000, found 0\n  \
         fix: write shards = 16"
    );
    assert_eq!(
        error(&variant("\"access_pattern.Create order.rate\" = -1")),
        "s.toml:25:46: access_pattern.Create order.rate: variant `a` (line 23): rate must be > 0, found `-1`\n  \
         fix: write a positive rate such as rate = 50 or rate = \"3M/day\" (remove the pattern if it has no traffic)"
    );
    assert_eq!(
        error(&variant("\"store.read_capacty\" = 2")),
        "s.toml:25:9: store.read_capacty: variant `a` (line 23): unknown key `read_capacty`; did you mean \
         `read_capacity`?\n  fix: rename `read_capacty` to `read_capacity`"
    );
}

/// A variant's error shows the base design's warnings after its fix: a
/// TTL without its unit may be the cause, and the warnings were not shown
/// when the file failed (a new user's bucket = 1 surfaced only as a
/// variant's fan-out over 100,000).
#[test]
fn a_variants_error_shows_the_warnings() {
    let text = format!(
        "{}\n[[variant]]\nname = \"a\"\nset = {{ \"table.orders.shards\" = 0 }}\n",
        BASE.replace("item_size = \"2KB\"", "item_size = \"2KB\"\nttl = \"30\"")
    );
    let e = error(&text);
    assert!(
        e.starts_with("s.toml:26:33: table.orders.shards: variant `a` (line 24): must be between 1 and 100,000, found 0\n  fix: write shards = 16\n"),
        "{e}"
    );
    assert!(
        e.ends_with("s.toml:15:7: warning: table.orders.ttl: ttl = \"30\" has no unit, so it is read as 30 seconds (30 s)\n  fix: write the unit: \"30d\" for days, or \"30s\" if seconds are meant"),
        "{e}"
    );
}

/// A node's disk or memory as a bare number is bytes: `node_storage = 2`
/// meant as 2 TB failed `node_storage` on day 2.5·10⁻¹⁰ (a new user's
/// finding). Under a MiB it is refused with the unit to write; a bare
/// byte count of a real disk stays accepted.
#[test]
fn a_nodes_disk_or_memory_without_a_unit_is_refused_when_tiny() {
    let cassandra = |storage: &str| {
        BASE.replace(
            "kind = \"dynamodb\"",
            &format!("kind = \"cassandra\"\nnode_storage = {storage}"),
        )
    };
    assert_eq!(
        error(&cassandra("2")),
        "s.toml:6:16: store.node_storage: node_storage = 2 is 2 bytes (a size without a unit is bytes), less than any node holds\n  \
         fix: write the unit, e.g. node_storage = \"2TB\""
    );
    // 64 or more is gigabytes meant (1000 GB, not 1000 TB).
    assert!(
        error(&cassandra("1000")).ends_with("fix: write the unit, e.g. node_storage = \"1000GB\"")
    );
    assert!(Scenario::from_str_at(&cassandra("2000000000000"), "s.toml").is_ok());
    assert!(Scenario::from_str_at(&cassandra("\"2TB\""), "s.toml").is_ok());
    let redis = BASE.replace(
        "kind = \"dynamodb\"",
        "kind = \"redis-cluster\"\nnode_memory = 16",
    );
    assert!(error(&redis).contains("node_memory = 16 is 16 bytes"));
}

/// A partition or item ceiling as a bare number is bytes too: a new
/// user's Cosmos DB `logical_partition_limit = 20` (meant as 20 GB) ran and
/// reported "ceiling 20 B; first breach after 0 minutes". Refused, quoted or
/// not, where no store's ceiling is so small; unit sizes stay bytes.
#[test]
fn a_partition_or_item_ceiling_without_a_unit_is_refused_when_tiny() {
    let cosmos = |setting: &str| {
        BASE.replace(
            "kind = \"dynamodb\"",
            &format!("kind = \"cosmosdb\"\n{setting}"),
        )
    };
    assert_eq!(
        error(&cosmos("logical_partition_limit = 20")),
        "s.toml:6:27: store.logical_partition_limit: logical_partition_limit = 20 is 20 bytes (a size without a unit is bytes), less than any store's partition ceiling\n  \
         fix: write the unit, e.g. logical_partition_limit = \"20GB\""
    );
    assert!(error(&cosmos("logical_partition_limit = \"20\"")).contains("is 20 bytes"));
    assert!(error(&cosmos("item_size_limit = 2"))
        .contains("write the unit, e.g. item_size_limit = \"2KB\""));
    assert!(Scenario::from_str_at(&cosmos("logical_partition_limit = \"20GB\""), "s.toml").is_ok());
    assert!(
        Scenario::from_str_at(&cosmos("logical_partition_limit = 20000000000"), "s.toml").is_ok()
    );
    // A unit size is bytes by nature: a 4,096-byte read unit on a generic store.
    let generic = BASE.replace(
        "kind = \"dynamodb\"",
        "kind = \"generic\"\nread_unit_size = 4096",
    );
    assert!(Scenario::from_str_at(&generic, "s.toml").is_ok());
    assert!(keyheat::store::Model::for_scenario(
        &Scenario::from_str_at(&generic, "s.toml").unwrap()
    )
    .is_ok());
}

#[test]
fn error_kind_carries_the_position() {
    let err = Scenario::from_str_at(&base_with("rate = 50", "rate = 0"), "s.toml").unwrap_err();
    match err.kind() {
        ErrorKind::Scenario {
            path,
            line,
            column,
            key,
            ..
        } => {
            assert_eq!((path.as_str(), *line, *column), ("s.toml", 20, 8));
            assert_eq!(key, "access_pattern.Create order.rate");
        }
        other => panic!("unexpected {other:?}"),
    }
}

#[test]
fn from_path_reads_the_file_and_reports_missing_files() {
    let s = Scenario::from_path("tests/fixtures/scenarios/full.toml").unwrap();
    assert_eq!(s.source_path, "tests/fixtures/scenarios/full.toml");
    assert_eq!(s.source_text, FULL);
    let err = Scenario::from_path("tests/fixtures/scenarios/absent.toml").unwrap_err();
    assert!(matches!(err.kind(), ErrorKind::Read { .. }));
    assert!(err.is_bad_input());
}

// ---- a complete scenario ----

#[test]
fn full_scenario_parses_into_expected_values() {
    let s = Scenario::from_str_at(FULL, "full.toml").unwrap();

    // unit conversions, spelled out
    assert_eq!(
        s.tables[0].item_size,
        SizeDist::LogNormal {
            median: 1200.0,
            p99: 6000.0
        }
    );
    assert_eq!(s.tables[1].item_size, SizeDist::Fixed(1024.0));
    assert!((s.access_patterns[0].rate_per_s - 34.722_222_222).abs() < 1e-6);
    assert_eq!(s.tables[0].bucket_s, Some(864_000.0));
    assert_eq!(s.simulation.horizon_days, 10.0);

    let customer_pk = tpl(
        "CUSTOMER#{customer}",
        // bucket then shard appended: bucket = "10d" and shards = 4, neither in the template
        vec![
            lit("CUSTOMER#"),
            ent("customer"),
            lit("#"),
            TemplatePart::Bucket,
            lit("#"),
            TemplatePart::Shard,
        ],
    );
    let expected = Scenario {
        name: "orders-by-customer".into(),
        description: "Single-table orders, newest first".into(),
        store: StoreConfig {
            kind: StoreKind::DynamoDb,
            settings: BTreeMap::from([
                ("adaptive_capacity".to_string(), SettingValue::Bool(true)),
                (
                    "item_size_limit".to_string(),
                    SettingValue::Text("400KB".into()),
                ),
                (
                    "partition_split_size".to_string(),
                    SettingValue::Text("10GB".into()),
                ),
                ("read_capacity".to_string(), SettingValue::Number(12_000.0)),
                ("write_capacity".to_string(), SettingValue::Number(4_000.0)),
            ]),
            // Checked below.
            positions: s.store.positions.clone(),
        },
        simulation: Simulation {
            seed: 7,
            trials: 50,
            window_s: 1.0,
            duration_s: 3600.0,
            horizon_days: 10.0,
            growth_per_day: 0.0,
            checkpoints_days: vec![0.0],
            day: 0.0,
            profile: vec![],
            bursts: vec![],
        },
        entities: vec![
            Entity {
                name: "customer".into(),
                count: 1_000_000,
                popularity: Popularity::Zipf { exponent: 1.0 },
                values: vec![],
            },
            Entity {
                name: "status".into(),
                count: 3,
                popularity: Popularity::Weights {
                    weights: vec![70.0, 20.0, 10.0],
                },
                values: vec![],
            },
            Entity {
                name: "sensor".into(),
                count: 5000,
                popularity: Popularity::Hotspot {
                    hot_fraction: 0.2,
                    hot_share: 0.8,
                },
                values: vec![],
            },
            Entity {
                name: "order".into(),
                count: 1,
                popularity: Popularity::New,
                values: vec![],
            },
        ],
        tables: vec![
            Table {
                name: "orders".into(),
                partition_key: customer_pk.clone(),
                sort_key: Some(tpl("ORDER#{time}", vec![lit("ORDER#"), TemplatePart::Time])),
                item_size: SizeDist::LogNormal {
                    median: 1200.0,
                    p99: 6000.0,
                },
                item_size_at: (43, 13),
                shards: 4,
                shard_strategy: ShardStrategy::Calculated,
                shard_by: None,
                bucket_s: Some(864_000.0),
                bucket_items: None,
                ttl_s: Some(365.0 * 86_400.0),
                initial_items: CountDist::Uniform {
                    min: 0.0,
                    max: 500.0,
                },
                indexes: vec![
                    Index {
                        name: "by_status".into(),
                        local: false,
                        partition_key: tpl("STATUS#{status}", vec![lit("STATUS#"), ent("status")]),
                        sort_key: Some(tpl("{time}", vec![TemplatePart::Time])),
                        projection: Projection::Include { bytes: 200.0 },
                        read_capacity: None,
                        write_capacity: None,
                        shards: 1,
                        shard_strategy: ShardStrategy::Random,
                        shard_by: None,
                        // The table's 10-day time bucket.
                        bucket_s: Some(864_000.0),
                        bucket_items: None,
                    },
                    Index {
                        name: "by_customer_lsi".into(),
                        local: true,
                        partition_key: customer_pk,
                        sort_key: Some(tpl("ORDER#{order}", vec![lit("ORDER#"), ent("order")])),
                        projection: Projection::KeysOnly,
                        read_capacity: None,
                        write_capacity: None,
                        shards: 1,
                        shard_strategy: ShardStrategy::Random,
                        shard_by: None,
                        // The table's 10-day time bucket.
                        bucket_s: Some(864_000.0),
                        bucket_items: None,
                    },
                ],
                unread_bytes_per_item: 0.0,
                appended_bytes_per_item: 0.0,
            },
            Table {
                name: "readings".into(),
                // {bucket} written explicitly: nothing appended; shards = 1: no {shard}
                partition_key: tpl(
                    "SENSOR#{sensor}#{bucket}",
                    vec![
                        lit("SENSOR#"),
                        ent("sensor"),
                        lit("#"),
                        TemplatePart::Bucket,
                    ],
                ),
                sort_key: None,
                item_size: SizeDist::Fixed(1024.0),
                item_size_at: (65, 13),
                shards: 1,
                shard_strategy: ShardStrategy::Random,
                shard_by: None,
                bucket_s: Some(86_400.0),
                bucket_items: None,
                ttl_s: None,
                initial_items: CountDist::Fixed(0.0),
                indexes: vec![],
                unread_bytes_per_item: 0.0,
                appended_bytes_per_item: 0.0,
            },
        ],
        access_patterns: vec![
            AccessPattern {
                name: "Create order".into(),
                table: 0,
                index: None,
                operation: Operation::Put,
                rate_per_s: 3.0 * 1e6 / 86_400.0,
                peak_factor: 3.0,
                by: Some("customer".into()),
                items: 1,
                consistency: Consistency::Transactional,
                consistency_written: true,
                element_size: None,
                range_s: None,
                index_key_changes: vec![],
                index_untouched: vec![],
                copies: None,
                cache: None,
                copy_of: None,
            },
            AccessPattern {
                name: "Orders by status".into(),
                table: 0,
                index: Some(0),
                operation: Operation::Query,
                rate_per_s: 20.0,
                peak_factor: 1.0,
                by: Some("status".into()),
                items: 20,
                consistency: Consistency::Eventual,
                consistency_written: false,
                element_size: None,
                range_s: Some(7.0 * 86_400.0),
                index_key_changes: vec![],
                index_untouched: vec![],
                copies: None,
                cache: None,
                copy_of: None,
            },
            AccessPattern {
                name: "Append reading".into(),
                table: 1,
                index: None,
                operation: Operation::Append,
                rate_per_s: 20.0 * 1e3 / 60.0,
                peak_factor: 1.0,
                by: Some("sensor".into()),
                items: 1,
                consistency: Consistency::Strong,
                consistency_written: true,
                element_size: Some(SizeDist::Fixed(64.0)),
                range_s: None,
                index_key_changes: vec![],
                index_untouched: vec![],
                copies: None,
                cache: None,
                copy_of: None,
            },
        ],
        checks: Checks {
            headroom: 0.75,
            copy_lag_s: 60.0,
        },
        pricing: None,
        variants: vec![],
        source_text: FULL.to_string(),
        source_path: "full.toml".into(),
        warnings: vec![],
    };
    assert_eq!(s, expected);
    // Store settings are kept as written with their positions; the store
    // model converts them (10 GB, 400 KB) and reports errors at these lines.
    assert_eq!(
        s.store.positions["item_size_limit"],
        SettingPosition {
            key: (11, 1),
            value: (11, 19)
        }
    );
    let settings = keyheat::store::Settings::parse(&s.store, "full.toml").unwrap();
    assert_eq!(settings.number("item_size_limit"), Some(400_000.0));
    assert_eq!(settings.number("partition_split_size"), Some(1e10));
}

#[test]
fn defaults_apply_when_sections_are_omitted() {
    let s = Scenario::from_str_at(BASE, "s.toml").unwrap();
    assert_eq!(
        s.simulation,
        Simulation {
            seed: 42,
            trials: 200,
            window_s: 1.0,
            duration_s: 3600.0,
            horizon_days: 365.0,
            growth_per_day: 0.0,
            checkpoints_days: vec![0.0],
            day: 0.0,
            profile: vec![],
            bursts: vec![],
        }
    );
    assert_eq!(s.checks.headroom, 0.8);
    assert_eq!(s.description, "");
    assert_eq!(s.entities[0].popularity, Popularity::Uniform);
    let t = &s.tables[0];
    assert_eq!(
        (t.shards, t.shard_strategy, t.bucket_s, t.ttl_s),
        (1, ShardStrategy::Random, None, None)
    );
    assert_eq!(t.initial_items, CountDist::Fixed(0.0));
    assert_eq!(
        t.partition_key.parts,
        vec![lit("CUSTOMER#"), ent("customer")]
    );
    let p = &s.access_patterns[0];
    assert_eq!(
        (p.peak_factor, p.items, p.consistency),
        (1.0, 1, Consistency::Eventual)
    );
}

// ---- variants and sweep ----

#[test]
fn variants_then_sweep_in_odometer_order() {
    let s = Scenario::from_str_at(SWEEP, "sweep.toml").unwrap();
    let names: Vec<&str> = s.variants.iter().map(|v| v.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "sharded-16",
            "zipf-heavy",
            "shards=1,bucket=1h",
            "shards=1,bucket=1d",
            "shards=4,bucket=1h",
            "shards=4,bucket=1d",
            "shards=16,bucket=1h",
            "shards=16,bucket=1d",
        ]
    );
    // the base is untouched
    assert_eq!(s.tables[0].shards, 1);
    assert_eq!(s.tables[0].bucket_s, None);

    let sharded = &s.variants[0];
    assert_eq!(
        sharded.set,
        vec![
            ("table.orders.shards".to_string(), serde_json::json!(16)),
            (
                "access_pattern.Create order.rate".to_string(),
                serde_json::json!("100/s")
            ),
        ]
    );
    assert_eq!(sharded.scenario.tables[0].shards, 16);
    assert_eq!(sharded.scenario.access_patterns[0].rate_per_s, 100.0);
    assert_eq!(
        sharded.scenario.tables[0].partition_key.parts,
        vec![
            lit("CUSTOMER#"),
            ent("customer"),
            lit("#"),
            TemplatePart::Shard
        ]
    );
    assert!(sharded.scenario.variants.is_empty());

    let zipf = &s.variants[1];
    assert_eq!(
        zipf.scenario.entities[0].popularity,
        Popularity::Zipf { exponent: 1.2 }
    );
    assert_eq!(zipf.scenario.simulation.trials, 10);
    assert_eq!(
        zipf.set[0],
        (
            "entity.customer.popularity".to_string(),
            serde_json::json!({"distribution": "zipf", "exponent": 1.2})
        )
    );

    let last = &s.variants[7];
    assert_eq!(
        last.set,
        vec![
            ("table.orders.shards".to_string(), serde_json::json!(16)),
            ("table.orders.bucket".to_string(), serde_json::json!("1d")),
        ]
    );
    let t = &last.scenario.tables[0];
    assert_eq!((t.shards, t.bucket_s), (16, Some(86_400.0)));
    assert_eq!(
        t.partition_key.parts,
        vec![
            lit("CUSTOMER#"),
            ent("customer"),
            lit("#"),
            TemplatePart::Bucket,
            lit("#"),
            TemplatePart::Shard
        ]
    );
    assert_eq!(s.variants[2].scenario.tables[0].shards, 1);
    assert_eq!(s.variants[2].scenario.tables[0].bucket_s, Some(3600.0));
}

#[test]
fn sweep_names_use_full_paths_when_last_segments_clash() {
    let text = format!(
        "{BASE}\n[[table]]\nname = \"audit\"\npartition_key = \"{{customer}}\"\nitem_size = 100\n\n[sweep]\n\
         \"table.orders.shards\" = [2]\n\"table.audit.shards\" = [4, 8]\n"
    );
    let s = Scenario::from_str_at(&text, "s.toml").unwrap();
    let names: Vec<&str> = s.variants.iter().map(|v| v.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "table.orders.shards=2,table.audit.shards=4",
            "table.orders.shards=2,table.audit.shards=8"
        ]
    );
    assert_eq!(s.variants[1].scenario.tables[1].shards, 8);
}

#[test]
fn sweep_is_capped() {
    let values: Vec<String> = (1..=40).map(|i| i.to_string()).collect();
    let values = values.join(", ");
    let text = format!(
        "{BASE}\n[sweep]\n\"table.orders.shards\" = [{values}]\n\"simulation.trials\" = [{values}]\n"
    );
    assert!(error(&text).contains("the sweep expands to more than 1000 combinations"));
}

#[test]
fn variant_paths_reach_into_indexes_and_nested_tables() {
    let text = format!(
        "{}\n[[table.index]]\nname = \"g\"\npartition_key = \"X\"\n\n[[variant]]\nname = \"v\"\n\
         set = {{ \"table.orders.index.g.projection\" = \"keys_only\", \"table.orders.item_size.p99\" = \"8KB\" }}\n",
        base_with(
            "item_size = \"2KB\"",
            "item_size = { distribution = \"lognormal\", median = \"1KB\", p99 = \"4KB\" }"
        )
    );
    let s = Scenario::from_str_at(&text, "s.toml").unwrap();
    let t = &s.variants[0].scenario.tables[0];
    assert_eq!(t.indexes[0].projection, Projection::KeysOnly);
    assert_eq!(
        t.item_size,
        SizeDist::LogNormal {
            median: 1000.0,
            p99: 8000.0
        }
    );
    assert_eq!(s.tables[0].indexes[0].projection, Projection::All);
}

// ---- never panic ----

/// Applies byte edits (delete / insert / replace at a position) to `text`.
fn mutate(text: &str, edits: &[(prop::sample::Index, u8, u8)]) -> String {
    let mut bytes = text.as_bytes().to_vec();
    for (at, op, byte) in edits {
        let i = at.index(bytes.len() + 1);
        match op {
            0 if i < bytes.len() => {
                bytes.remove(i);
            }
            1 => bytes.insert(i, *byte),
            _ if i < bytes.len() => bytes[i] = *byte,
            _ => bytes.push(*byte),
        }
    }
    String::from_utf8_lossy(&bytes).into_owned()
}

fn interesting_byte() -> impl Strategy<Value = u8> {
    prop_oneof![
        any::<u8>(),
        prop::sample::select(b"{}[]\".=-0 \n#_,".to_vec())
    ]
}

/// TOML values that stress validation: extremes, wrong types, junk units.
const HOSTILE_VALUES: &[&str] = &[
    "-1",
    "0",
    "1e308",
    "inf",
    "nan",
    "-0.0",
    "9223372036854775807",
    "-9223372036854775808",
    "0x7fffffffffffffff",
    "\"\"",
    "\"{\"",
    "\"}{\"",
    "\"{bucket}{shard}{time}{id}\"",
    "\"99999999999999999999999999999KB\"",
    "\"1/0s\"",
    "\"none\"",
    "\"é\"",
    "[]",
    "{}",
    "[1, \"a\"]",
    "true",
    "1979-05-27T07:32:00Z",
    "{ distribution = \"lognormal\", median = 0, p99 = -1 }",
    "{ distribution = \"uniform\", min = 5, max = 1 }",
    "{ distribution = \"weights\", weights = [0, 0] }",
];

/// Replaces the value of the `line`-th `key = value` line of `text` with `value`.
fn replace_value(text: &str, line: prop::sample::Index, value: &str) -> String {
    let lines: Vec<&str> = text.lines().collect();
    let assignments: Vec<usize> = (0..lines.len())
        .filter(|&i| lines[i].contains(" = ") && !lines[i].trim_start().starts_with('#'))
        .collect();
    let target = assignments[line.index(assignments.len())];
    lines
        .iter()
        .enumerate()
        .map(|(i, l)| match (i == target, l.split_once(" = ")) {
            (true, Some((key, _))) => format!("{key} = {value}"),
            _ => l.to_string(),
        })
        .collect::<Vec<_>>()
        .join("\n")
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn random_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..400)) {
        let text = String::from_utf8_lossy(&bytes);
        let _ = Scenario::from_str_at(&text, "fuzz.toml");
    }

    #[test]
    fn hostile_values_never_panic(
        which in 0..2usize,
        swaps in prop::collection::vec((any::<prop::sample::Index>(), prop::sample::select(HOSTILE_VALUES)), 1..4),
    ) {
        let mut text = [FULL, SWEEP][which].to_string();
        for (line, value) in &swaps {
            text = replace_value(&text, *line, value);
        }
        let _ = Scenario::from_str_at(&text, "fuzz.toml");
    }

    #[test]
    fn mutated_scenarios_never_panic(
        which in 0..2usize,
        edits in prop::collection::vec((any::<prop::sample::Index>(), 0u8..3, interesting_byte()), 1..6),
    ) {
        let text = mutate([FULL, SWEEP][which], &edits);
        if let Err(e) = Scenario::from_str_at(&text, "fuzz.toml") {
            // every error names a position inside the file
            if let ErrorKind::Scenario { line, column, .. } = e.kind() {
                prop_assert!(*line >= 1 && *column >= 1);
                prop_assert!(*line <= text.lines().count() + 1);
            }
        }
    }
}

#[test]
fn variant_paths_with_dotted_pattern_names() {
    let text = format!(
        "{}\n[[access_pattern]]\nname = \"read v1.2\"\ntable = \"orders\"\noperation = \"get\"\nrate = 5\n\n\
         [[variant]]\nname = \"busy\"\nset = {{ \"access_pattern.read v1.2.rate\" = \"20k/min\" }}\n",
        BASE
    );
    let s = Scenario::from_str_at(&text, "s.toml").unwrap();
    let v = &s.variants[0].scenario;
    assert_eq!(v.access_patterns[1].rate_per_s, 20_000.0 / 60.0);
    assert_eq!(v.access_patterns[0].rate_per_s, 50.0);
}

#[test]
fn an_unsupported_schema_version_is_reported_before_unknown_keys() {
    let text = base_with(
        "schema_version = 1",
        "schema_version = 2\nfuture_key = true",
    );
    assert!(
        error(&text).starts_with("s.toml:1:18: schema_version: schema_version 2 is not supported")
    );
}

#[test]
fn integers_out_of_range() {
    assert_eq!(
        error(&format!("{BASE}\n[simulation]\nseed = 99999999999999999999\n")),
        "s.toml:24:8: simulation.seed: must be ≤ 18446744073709551615, found 99999999999999999999\n  \
         fix: write seed = 42"
    );
}

#[test]
fn a_misspelt_unit_gets_the_corrected_value_as_its_fix() {
    let e = error(&base_with("item_size = \"2KB\"", "item_size = \"1.2 kb\""));
    assert!(e.contains("did you mean `KB`?"), "{e}");
    assert!(e.ends_with("fix: write item_size = \"1.2KB\""), "{e}");
    // No usable suggestion: the generic example stays.
    let e = error(&base_with("item_size = \"2KB\"", "item_size = \"big\""));
    assert!(e.contains("fix: write item_size = \"2KB\""), "{e}");
}

#[test]
fn store_setting_errors_name_their_line() {
    // Regression: range errors of store settings were reported at `file:0:0`.
    assert_eq!(
        error(&base_with(
            "kind = \"dynamodb\"",
            "kind = \"dynamodb\"\npartitions = 0"
        )),
        "s.toml:6:14: store.partitions: must be a whole number from 1 to 100,000, found 0\n  \
         fix: set partitions to a whole number in that range, or remove it to take the default"
    );
    assert_eq!(
        error(&base_with(
            "kind = \"dynamodb\"",
            "kind = \"mongodb\"\nchunk_size = \"2GiB\""
        )),
        "s.toml:6:14: store.chunk_size: must be from 1 MiB to 1 GiB, found 2 GiB\n  \
         fix: set chunk_size within that range, or remove it to take the default"
    );
    // A bare number is bytes: out of range, the fix names the unit it fits
    // in (a new user's `chunk_size = 128` got no hint).
    assert_eq!(
        error(&base_with(
            "kind = \"dynamodb\"",
            "kind = \"mongodb\"\nchunk_size = 128"
        )),
        "s.toml:6:14: store.chunk_size: must be from 1 MiB to 1 GiB, found 128 B\n  \
         fix: write chunk_size = \"128MiB\" (a bare number is bytes)"
    );
    assert_eq!(
        error(&base_with("kind = \"dynamodb\"", "kind = \"mongodb\"\nchunk_size = \"64 mib\"")),
        "s.toml:6:14: store.chunk_size: `64 mib` is not a size: unknown unit `mib` (did you mean `MiB`?); \
         a size is a number of bytes, optionally followed by `B`, `KB`, `kB`, `MB`, `GB`, `TB`, `PB`, `KiB`, \
         `MiB`, `GiB`, `TiB` or `PiB` (e.g. \"1.2KB\", \"4KiB\")\n  fix: write chunk_size = \"64MiB\""
    );
    // A cross-setting check in the store model names the setting's line too.
    assert_eq!(
        error(&base_with(
            "kind = \"dynamodb\"",
            "kind = \"cassandra\"\nnodes = 2\nreplication_factor = 3"
        )),
        "s.toml:7:22: store.replication_factor: replication_factor 3 exceeds the 2 nodes\n  \
         fix: set replication_factor to at most 2, or add nodes"
    );
    // In a variant, the error points at the variant's value.
    let text =
        format!("{BASE}\n[[variant]]\nname = \"a\"\nset = {{ \"store.write_capacity\" = -1 }}\n");
    assert_eq!(
        error(&text),
        "s.toml:25:34: store.write_capacity: variant `a` (line 23): must be ≥ 0, found `-1`\n  \
         fix: set write_capacity to 0 or more, or remove it to take the default"
    );
}

/// A bare number is seconds: `horizon = 120`, `ttl = 90` and bare
/// checkpoints are read as such but each gets a located warning naming the
/// reading (120 s = 2 min) and the fix, since a planner meaning days would
/// otherwise see every size check pass over a two-minute horizon. With the
/// unit written there is no warning.
#[test]
fn durations_without_a_unit_warn_where_they_are_written() {
    let text = base_with(
        "name = \"errs\"\n",
        "name = \"errs\"\n[simulation]\nhorizon = 120\ncheckpoints = [0, \"1m\"]\n",
    )
    .replace("item_size = \"2KB\"", "item_size = \"2KB\"\nttl = 90");
    let s = Scenario::from_str_at(&text, "u.toml").expect("valid, with warnings");
    let shown: Vec<String> = s.warnings.iter().map(ToString::to_string).collect();
    assert_eq!(shown.len(), 3, "{shown:#?}");
    // A checkpoint of 30 days after that two-minute horizon is an error.
    let late = error(&text.replace("\"1m\"", "\"30d\""));
    assert!(
        late.contains("checkpoint 30 d is after the horizon (2 min)"),
        "{late}"
    );
    assert!(shown[0].starts_with("u.toml:4:11: warning: simulation.horizon: horizon = 120 has no unit, so it is read as 120 seconds (2 min)"), "{}", shown[0]);
    assert!(
        shown[0]
            .contains("fix: write the unit: \"120d\" for days, or \"120s\" if seconds are meant"),
        "{}",
        shown[0]
    );
    assert!(
        shown[1].contains("checkpoints[0] = 0 has no unit"),
        "{}",
        shown[1]
    );
    assert!(shown[2].starts_with("u.toml:18:7: warning: table.orders.ttl: ttl = 90 has no unit, so it is read as 90 seconds (1.5 min)"), "{}", shown[2]);
    // The reading itself is unchanged (schema v1): 120 s, 90 s.
    assert!((s.simulation.horizon_days - 120.0 / 86_400.0).abs() < 1e-12);
    assert_eq!(s.tables[0].ttl_s, Some(90.0));
    let written = text
        .replace("horizon = 120", "horizon = \"120d\"")
        .replace("checkpoints = [0,", "checkpoints = [\"0d\",")
        .replace("\"1m\"]", "\"1h\"]")
        .replace("ttl = 90", "ttl = \"90d\"");
    let s = Scenario::from_str_at(&written, "u.toml").expect("valid");
    assert!(s.warnings.is_empty(), "{:?}", s.warnings);
}

/// The store's `gc_grace` (Cassandra's tombstone age) without a unit is
/// seconds, and warns as `ttl` does (a new user's `gc_grace = 3600` was
/// read without a word; `gc_grace = 10` meant as days would be 10 s).
#[test]
fn a_store_age_without_a_unit_warns_too() {
    let text = |grace: &str| {
        format!(
            "schema_version = 1\nname = \"g\"\n[store]\nkind = \"cassandra\"\nnodes = 6\ngc_grace = {grace}\n[[entity]]\nname = \"user\"\ncount = 1000\n[[table]]\nname = \"t\"\npartition_key = \"U#{{user}}\"\nitem_size = \"1KB\"\n[[access_pattern]]\nname = \"w\"\ntable = \"t\"\noperation = \"put\"\nrate = 10\nby = \"user\"\n"
        )
    };
    let s = Scenario::from_str_at(&text("3600"), "g.toml").expect("valid, with a warning");
    let shown: Vec<String> = s.warnings.iter().map(ToString::to_string).collect();
    assert_eq!(shown.len(), 1, "{shown:#?}");
    assert!(
        shown[0].starts_with("g.toml:6:12: warning: store.gc_grace: gc_grace = 3600 has no unit, so it is read as 3600 seconds (1 h)\n  fix: write the unit: \"1h\" if 3600 seconds are meant, or \"3600d\" for days"),
        "{}",
        shown[0]
    );
    let s = Scenario::from_str_at(&text("\"1h\""), "g.toml").expect("valid");
    assert!(s.warnings.is_empty(), "{:?}", s.warnings);
}

/// A quoted number is a duration without a unit too (a new user's `ttl =
/// "90"` meant as days turned a failing item collection into a pass with
/// no word): `horizon = "120"`, `ttl = "90"`, a `bucket` and a query's
/// `range` warn where they are written, quoted as written; with the unit,
/// or a string that is not a number (the parser's error), they do not.
#[test]
fn quoted_durations_without_a_unit_warn_too() {
    let text = base_with(
        "name = \"errs\"\n",
        "name = \"errs\"\n[simulation]\nhorizon = \"120\"\n",
    )
    .replace(
        "item_size = \"2KB\"",
        "item_size = \"2KB\"\nttl = \"90\"\nsort_key = \"{time}\"\nbucket = \"1_000\"",
    )
    .replace(
        "by = \"customer\"\n",
        "by = \"customer\"\n\n[[access_pattern]]\nname = \"Recent\"\ntable = \"orders\"\noperation = \"query\"\nrate = 5\nby = \"customer\"\nrange = \"1\"\n",
    );
    let s = Scenario::from_str_at(&text, "q.toml").expect("valid, with warnings");
    let shown: Vec<String> = s.warnings.iter().map(ToString::to_string).collect();
    let has = |needle: &str| shown.iter().any(|w| w.contains(needle));
    assert!(
        shown[0].starts_with("q.toml:4:11: warning: simulation.horizon: horizon = \"120\" has no unit, so it is read as 120 seconds (2 min)"),
        "{shown:#?}"
    );
    assert!(
        has("table.orders.ttl: ttl = \"90\" has no unit, so it is read as 90 seconds (1.5 min)"),
        "{shown:#?}"
    );
    assert!(has("table.orders.bucket: bucket = \"1000\" has no unit, so it is read as 1000 seconds (16.7 min)"), "{shown:#?}");
    assert!(
        has("range = \"1\" has no unit, so it is read as 1 second (1 s)"),
        "{shown:#?}"
    );
    assert!(
        has("fix: write the unit: \"90d\" for days, or \"90s\" if seconds are meant"),
        "{shown:#?}"
    );
    // The reading itself is unchanged (schema v1): 90 s.
    assert_eq!(s.tables[0].ttl_s, Some(90.0));
    // A round number of hours in seconds is offered as hours first.
    let hourly = text.replace("ttl = \"90\"", "ttl = 3600");
    let s = Scenario::from_str_at(&hourly, "q.toml").expect("valid, with warnings");
    assert!(
        s.warnings.iter().any(|w| w.to_string().contains(
            "fix: write the unit: \"1h\" if 3600 seconds are meant, or \"3600d\" for days"
        )),
        "{:#?}",
        s.warnings
    );
    let written = text
        .replace("horizon = \"120\"", "horizon = \"120d\"")
        .replace("ttl = \"90\"", "ttl = \"90d\"")
        .replace("bucket = \"1_000\"", "bucket = \"1d\"")
        .replace("range = \"1\"", "range = \"1d\"");
    let s = Scenario::from_str_at(&written, "q.toml").expect("valid");
    let units: Vec<String> = s
        .warnings
        .iter()
        .map(ToString::to_string)
        .filter(|w| w.contains("has no unit"))
        .collect();
    assert!(units.is_empty(), "{units:?}");
}

/// A bare growth is a fraction per month: a new user's `growth = 4` meant
/// as 4%/month is 400%/month, × 3.2·10⁸ by day 365, refused; the error
/// says how the number was read and gives the percentage's spelling.
/// Traffic past 10⁶ × is refused however it is written.
#[test]
fn a_bare_growth_over_the_cap_says_how_it_was_read() {
    let text = base_with(
        "name = \"errs\"\n",
        "name = \"errs\"\n[simulation]\ngrowth = 4\n",
    );
    assert_eq!(
        error(&text),
        "s.toml:4:10: simulation.growth: traffic grows (or shrinks) e^19.6 = 319,000,000 × by day 365, more than 1,000,000 ×: a bare number is a fraction per month, so growth = 4 is 400%/month\n  \
         fix: write growth = \"4%/month\" if a percentage was meant, or lower growth, or shorten the horizon and the checkpoints"
    );
    let text = text.replace("growth = 4", "growth = \"400%/month\"");
    assert_eq!(
        error(&text),
        "s.toml:4:10: simulation.growth: traffic grows (or shrinks) e^19.6 = 319,000,000 × by day 365, more than 1,000,000 ×\n  \
         fix: lower growth, or shorten the horizon and the checkpoints"
    );
}

/// A time bucket longer than the horizon warns where it is written: no
/// write reaches a second bucket, so the bucket bounds nothing projected.
/// A bucket of exactly the horizon does not warn.
#[test]
fn a_bucket_longer_than_the_horizon_warns_where_it_is_written() {
    let text = base_with(
        "partition_key = \"CUSTOMER#{customer}\"\n",
        "partition_key = \"CUSTOMER#{customer}#{bucket}\"\nbucket = \"400d\"\n",
    );
    let s = Scenario::from_str_at(&text, "b.toml").expect("valid, with a warning");
    let shown: Vec<String> = s.warnings.iter().map(ToString::to_string).collect();
    assert_eq!(shown.len(), 1, "{shown:#?}");
    assert!(
        shown[0].starts_with(
            "b.toml:14:10: warning: table.orders.bucket: bucket 400 d is longer than the horizon (365 d)"
        ),
        "{}",
        shown[0]
    );
    assert!(
        shown[0].contains("fix: raise the horizon to horizon = \"400d\""),
        "{}",
        shown[0]
    );
    let within = text.replace("\"400d\"", "\"365d\"");
    let s = Scenario::from_str_at(&within, "b.toml").expect("valid");
    assert!(s.warnings.is_empty(), "{:#?}", s.warnings);
}

/// A checkpoint after the horizon (a new user's `"400d"` with `horizon =
/// "365d"`; another's `horizon = "12m"`, 12 minutes, with checkpoints at
/// days 180 and 365, which reported PASS) is an error where it is written:
/// sizes and breaches stop at the horizon while that busy period runs
/// later. One at the horizon is not.
#[test]
fn a_checkpoint_after_the_horizon_is_refused_where_it_is_written() {
    let text = base_with(
        "name = \"errs\"\n",
        "name = \"errs\"\n[simulation]\nhorizon = \"365d\"\ncheckpoints = [\"0d\", \"180d\", \"400d\"]\n",
    );
    assert_eq!(
        error(&text),
        "s.toml:5:30: simulation.checkpoints[2]: checkpoint 400 d is after the horizon (365 d): breaches, \
         the size checks and node storage are projected only to 365 d, while this busy period would run on \
         its own day (its stored data and partitions that day's), so the checks would judge different days\n  \
         fix: raise the horizon to horizon = \"400d\" (a month is \"mo\": \"12mo\"; \"m\" is minutes), or keep \
         checkpoints within 365 d"
    );
    let minutes = text
        .replace("horizon = \"365d\"", "horizon = \"12m\"")
        .replace(", \"400d\"", ", \"365d\"");
    assert!(
        error(&minutes).starts_with(
            "s.toml:5:22: simulation.checkpoints[1]: checkpoint 180 d is after the horizon (12 min)"
        ),
        "{}",
        error(&minutes)
    );
    // The fix clears every checkpoint (helper-73 was offered "180d" for
    // checkpoints up to 365 d), and a bare horizon says it is seconds.
    assert!(
        error(&minutes).contains("fix: raise the horizon to horizon = \"365d\""),
        "{}",
        error(&minutes)
    );
    let bare = minutes.replace("horizon = \"12m\"", "horizon = 365");
    assert!(
        error(&bare).starts_with(
            "s.toml:5:22: simulation.checkpoints[1]: horizon = 365 has no unit, so it is read as 365 \
             seconds (6.08 min); checkpoint 180 d is after the horizon (6.08 min)"
        ),
        "{}",
        error(&bare)
    );
    let within = text.replace("\"400d\"", "\"365d\"");
    let s = Scenario::from_str_at(&within, "c.toml").expect("valid");
    assert!(s.warnings.is_empty(), "{:?}", s.warnings);
}

/// `window = 1000` meant as milliseconds is read as 1,000 s (16.7 min): a
/// per-second limit judged over 16-minute windows, silently. Bare `window`
/// and `duration` warn where they are written, with a seconds-scale fix.
#[test]
fn a_window_or_duration_without_a_unit_warns() {
    let text = base_with(
        "name = \"errs\"\n",
        "name = \"errs\"\n[simulation]\nwindow = 1000\nduration = 3600\n",
    );
    let s = Scenario::from_str_at(&text, "w.toml").expect("valid, with warnings");
    let shown: Vec<String> = s.warnings.iter().map(ToString::to_string).collect();
    assert_eq!(shown.len(), 2, "{shown:#?}");
    assert!(shown[0].starts_with("w.toml:4:10: warning: simulation.window: window = 1000 has no unit, so it is read as 1000 seconds (16.7 min)"), "{}", shown[0]);
    assert!(
        shown[0].contains("fix: write the unit: \"1000s\" if seconds are meant, or e.g. window = \"1s\", duration = \"1h\""),
        "{}",
        shown[0]
    );
    assert!(
        shown[1].contains("duration = 3600 has no unit, so it is read as 3600 seconds (1 h)"),
        "{}",
        shown[1]
    );
    let written = text
        .replace("window = 1000", "window = \"1s\"")
        .replace("duration = 3600", "duration = \"1h\"");
    let s = Scenario::from_str_at(&written, "w.toml").expect("valid");
    assert!(s.warnings.is_empty(), "{:?}", s.warnings);
}

/// A rate in a common spelling the parser does not take gets a fix with the
/// user's own number and the unit meant (from the new-user trial: every
/// rate error used to suggest the stock `rate = 50`).
#[test]
fn a_misspelled_rate_unit_is_fixed_with_the_users_number() {
    let base = base_with("name = \"errs\"\n", "name = \"errs\"\n");
    let rate_line = base
        .lines()
        .find(|l| l.starts_with("rate = "))
        .expect("the base has a rate")
        .to_string();
    for (written, fix) in [
        ("\"1500/hr\"", "fix: write rate = \"1500/h\""),
        ("\"1500 rps\"", "fix: write rate = \"1500/s\""),
        ("\"2k rps\"", "fix: write rate = \"2k/s\""),
        ("\"1500/Sec\"", "fix: write rate = \"1500/sec\""),
        ("\"2.5M/Day\"", "fix: write rate = \"2.5M/day\""),
        // A second new user: these got the stock `rate = 50`, a 10×–30× trap.
        ("\"500 ops/s\"", "fix: write rate = \"500/s\""),
        ("\"750 req/s\"", "fix: write rate = \"750/s\""),
        ("\"1,500/s\"", "fix: write rate = \"1500/s\""),
        ("\"20 requests per minute\"", "fix: write rate = \"20/min\""),
    ] {
        let text = base.replacen(&rate_line, &format!("rate = {written}"), 1);
        let e = error(&text);
        assert!(e.contains(fix), "{written}: {e}");
    }
}

/// A duration with its unit spelled out (`"30 days"`, `"1sec"`, `"2
/// hours"`) gets a fix with the user's number and the unit's short form (it
/// used to suggest the stock `"365d"`, whatever was meant).
#[test]
fn a_spelled_out_duration_unit_is_fixed_with_the_users_number() {
    let base = base_with(
        "name = \"errs\"\n",
        "name = \"errs\"\n[simulation]\nhorizon = \"HORIZON\"\n",
    );
    for (written, fix) in [
        ("30 days", "fix: write horizon = \"30d\""),
        ("1sec", "fix: write horizon = \"1s\""),
        ("2 hours", "fix: write horizon = \"2h\""),
        ("1.5 Weeks", "fix: write horizon = \"1.5w\""),
    ] {
        let e = error(&base.replace("HORIZON", written));
        assert!(e.contains(fix), "{written}: {e}");
        assert!(e.contains("did you mean"), "{written}: {e}");
    }
}

/// An item size written as a bare number is bytes, as before (schema v1),
/// with a warning naming the key and the fix: a new user's log-normal
/// `median = 2, p99 = 40`, meant as KB, was 2 and 40 bytes without a word.
#[test]
fn item_sizes_without_a_unit_warn() {
    let text = base_with("name = \"errs\"\n", "name = \"errs\"\n").replace(
        "item_size = \"2KB\"",
        "item_size = { distribution = \"lognormal\", median = 2, p99 = 40 }",
    );
    let s = Scenario::from_str_at(&text, "z.toml").expect("valid, with warnings");
    let shown: Vec<String> = s.warnings.iter().map(ToString::to_string).collect();
    let has = |needle: &str| shown.iter().any(|w| w.contains(needle));
    assert!(
        has("warning: table.orders.item_size.median: median = 2 has no unit, so it is read as 2 bytes"),
        "{shown:#?}"
    );
    assert!(
        has("fix: write the unit: p99 = \"40KB\" for kilobytes, or \"40B\" if bytes are meant"),
        "{shown:#?}"
    );
    let fixed = Scenario::from_str_at(
        &text
            .replace("= 2,", "= \"2B\",")
            .replace("= 40 }", "= \"40B\" }"),
        "z.toml",
    )
    .expect("valid");
    assert!(fixed.warnings.is_empty(), "{:#?}", fixed.warnings);
    let bare = base_with("name = \"errs\"\n", "name = \"errs\"\n")
        .replace("item_size = \"2KB\"", "item_size = 300");
    let s = Scenario::from_str_at(&bare, "z.toml").expect("valid, with a warning");
    assert!(
        s.warnings.iter().any(|w| w
            .to_string()
            .contains("item_size = 300 has no unit, so it is read as 300 bytes")),
        "{:#?}",
        s.warnings
    );
    // Quoted, the same number (a new user's `item_size = "1.5"` ran as
    // 1.5 bytes without a word); hundreds suggest bytes first, and an
    // index's `include` is a size too.
    let quoted = |size: &str| {
        let text = base_with("name = \"errs\"\n", "name = \"errs\"\n")
            .replace("item_size = \"2KB\"", &format!("item_size = {size}"));
        let s = Scenario::from_str_at(&text, "q.toml").expect("valid, with a warning");
        s.warnings
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
    };
    let shown = quoted("\"1.5\"");
    assert!(
        shown.iter().any(|w| w
            .contains("item_size = \"1.5\" has no unit, so it is read as 1.5 bytes")
            && w.contains("fix: write the unit: item_size = \"1.5KB\" for kilobytes")),
        "{shown:#?}"
    );
    let shown = quoted("\"1500\"");
    assert!(
        shown
            .iter()
            .any(|w| w.contains("item_size = \"1500\" has no unit")
                && w.contains(
                    "fix: write the unit: item_size = \"1500B\" if bytes are meant, or \"1500KB\""
                )),
        "{shown:#?}"
    );
    let shown = quoted("\"2KB\"\n\n[[table.index]]\nname = \"by_status\"\npartition_key = \"{customer}\"\nprojection = { include = 300 }");
    assert!(
        shown
            .iter()
            .any(|w| w.contains("include = 300 has no unit, so it is read as 300 bytes")),
        "{shown:#?}"
    );
    // An append's element too (helper-75's `element_size = 40`).
    let shown = quoted("\"2KB\"\n\n[[access_pattern]]\nname = \"Add note\"\ntable = \"orders\"\noperation = \"append\"\nrate = 10\nby = \"customer\"\nelement_size = 40");
    assert!(
        shown.iter().any(|w| w
            .contains("access_pattern.Add note.element_size: element_size = 40 has no unit, so it is read as 40 bytes")
            && w.contains("fix: write the unit: element_size = \"40KB\" for kilobytes")),
        "{shown:#?}"
    );
}

/// A query's `range` over a table without a bucket (a new user's 7-day
/// history read) changes nothing: it warns where it is written, unless a
/// variant gives the table the bucket the range then spans.
#[test]
fn a_range_over_an_unbucketed_table_warns_unless_a_variant_buckets_it() {
    let text = base_with(
        "item_size = \"2KB\"\n",
        "item_size = \"2KB\"\nsort_key = \"{time}\"\n",
    )
        + "\n[[access_pattern]]\nname = \"History\"\ntable = \"orders\"\noperation = \"query\"\n\
         rate = 5\nby = \"customer\"\nrange = \"7d\"\n";
    let s = Scenario::from_str_at(&text, "r.toml").expect("valid, with a warning");
    let shown: Vec<String> = s.warnings.iter().map(ToString::to_string).collect();
    assert_eq!(shown.len(), 1, "{shown:#?}");
    assert!(
        shown[0].starts_with(
            "r.toml:30:9: warning: access_pattern.History.range: range has no effect here: \
             table `orders` has no bucket, so a query reads its one partition key's 1 item(s)"
        ),
        "{}",
        shown[0]
    );
    assert!(shown[0].contains("bucket = \"1d\""), "{}", shown[0]);
    // A variant that buckets the table makes the range read 7 buckets.
    let varied = text
        + "\n[[variant]]\nname = \"daily\"\nset = { \"table.orders.bucket\" = \"1d\", \
           \"table.orders.partition_key\" = \"CUSTOMER#{customer}#{bucket}\" }\n";
    let s = Scenario::from_str_at(&varied, "r.toml").expect("valid");
    assert!(s.warnings.is_empty(), "{:#?}", s.warnings);
    assert_eq!(s.variants[0].scenario.tables[0].bucket_s, Some(86_400.0));
    // That variant misspelt: its error alone, not a warning that the table
    // it meant to bucket has no bucket.
    let misspelt = varied.replace("\"table.orders.bucket\"", "\"table.order.bucket\"");
    let e = Scenario::from_str_at(&misspelt, "r.toml")
        .expect_err("no table `order`")
        .to_string();
    assert!(e.contains("there is no table named `order`"), "{e}");
    assert!(!e.contains("range has no effect"), "{e}");
}

#[test]
fn a_range_longer_than_the_ttl_warns_where_it_is_written() {
    // Daily buckets kept 12 hours: a 25-hour range reads 2 buckets as
    // written, though items older than 12 hours have expired.
    let text = base_with(
        "item_size = \"2KB\"\n",
        "item_size = \"2KB\"\nsort_key = \"{time}\"\nbucket = \"1d\"\nttl = \"12h\"\n",
    )
    .replace("CUSTOMER#{customer}\"", "CUSTOMER#{customer}#{bucket}\"")
        + "\n[[access_pattern]]\nname = \"Dashboard\"\ntable = \"orders\"\noperation = \"query\"\n\
         rate = 5\nby = \"customer\"\nrange = \"25h\"\n";
    let s = Scenario::from_str_at(&text, "t.toml").expect("valid, with a warning");
    let shown: Vec<String> = s.warnings.iter().map(ToString::to_string).collect();
    assert_eq!(shown.len(), 1, "{shown:#?}");
    assert!(
        shown[0].starts_with(
            "t.toml:32:9: warning: access_pattern.Dashboard.range: range \"25h\" (25 h) reads \
             further back than table `orders`'s ttl keeps items (12 h)"
        ),
        "{}",
        shown[0]
    );
    assert!(shown[0].contains("shorten range"), "{}", shown[0]);
    // Within the ttl: no warning.
    let within = text.replace("range = \"25h\"", "range = \"12h\"");
    let s = Scenario::from_str_at(&within, "t.toml").expect("valid");
    assert!(s.warnings.is_empty(), "{:#?}", s.warnings);
}

#[test]
fn a_capacity_written_with_its_unit_is_the_stores_error_not_the_prices() {
    // `write_capacity = "8000 WCU"` beside an hourly write price: the
    // error named `pricing.write_unit_hour` and asked for the
    // write_capacity that was there; it is the capacity's value.
    let text = base_with(
        "kind = \"dynamodb\"\n",
        "kind = \"dynamodb\"\nread_capacity = 100\nwrite_capacity = \"8000 WCU\"\n",
    ) + "\n[pricing]\nread_unit_hour = 0.00013\nwrite_unit_hour = 0.00065\n";
    let e = error(&text);
    assert!(
        e.starts_with("s.toml:7:18: store.write_capacity: expected a number"),
        "{e}"
    );
    // The fix keeps the user's number (it suggested 1000 for "20k RU/s").
    assert!(e.contains("fix: write write_capacity = 8000"), "{e}");
    for (written, fix) in [
        ("\"20k RU/s\"", "fix: write throughput = 20000"),
        ("\"1.5M\"", "fix: write throughput = 1500000"),
        ("\"lots\"", "fix: write throughput = 1000"),
    ] {
        let text = base_with(
            "kind = \"dynamodb\"\n",
            &format!("kind = \"cosmosdb\"\nthroughput = {written}\n"),
        );
        let e = error(&text);
        assert!(e.contains(fix), "{written}: {e}");
    }
}

#[test]
fn a_hot_set_of_a_fraction_of_an_instance_warns_what_is_simulated() {
    // 0.2 of 1,000 customers' 0.0002 is 0.2 instances: the hot set becomes
    // one customer taking all of hot_share, which the warning says.
    let text = base_with(
        "count = 1000\n",
        "count = 1000\npopularity = { distribution = \"hotspot\", hot_fraction = 0.0002, hot_share = 0.8 }\n",
    );
    let s = Scenario::from_str_at(&text, "t.toml").expect("valid, with a warning");
    let shown: Vec<String> = s.warnings.iter().map(ToString::to_string).collect();
    assert_eq!(shown.len(), 1, "{shown:#?}");
    assert!(
        shown[0].starts_with(
            "t.toml:10:57: warning: entity.customer.popularity.hot_fraction: hot_fraction 0.0002 \
             of 1,000 instances is 0.2 instances; keyheat simulates 1 hot instance taking 80.0% \
             of the requests (hot_fraction 0.001)"
        ),
        "{}",
        shown[0]
    );
    assert!(
        shown[0].contains("hot_fraction = 0.001 is 1 instance"),
        "{}",
        shown[0]
    );
    // A cold set of 0.3 instances vanishes: every instance hot.
    let s = Scenario::from_str_at(&text.replace("0.0002", "0.9997"), "t.toml").expect("valid");
    assert_eq!(s.warnings.len(), 1, "{:#?}", s.warnings);
    assert!(
        s.warnings[0]
            .message
            .contains("1,000 hot instances (every instance: hot_share has no effect)"),
        "{}",
        s.warnings[0]
    );
    // A whole number of instances, or within 10% of one: no warning.
    for hf in ["0.002", "0.0021", "0.2"] {
        let s = Scenario::from_str_at(&text.replace("0.0002", hf), "t.toml").expect("valid");
        assert!(s.warnings.is_empty(), "{hf}: {:#?}", s.warnings);
    }
}

/// DynamoDB refuses a strongly consistent read through a global secondary
/// index ("Queries on global secondary indexes support eventual
/// consistency only"): keyheat refuses it too, where the consistency is
/// written, instead of pricing a strong read (a new user's finding). A
/// local index reads strongly, and a local index needs its own sort key.
#[test]
fn strong_reads_through_a_global_index_and_local_indexes_without_a_sort_key_are_refused() {
    let with = |index: &str, read: &str| {
        base_with("item_size = \"2KB\"\n", &format!("item_size = \"2KB\"\nsort_key = \"ORDER#{{time}}\"\n\n[[table.index]]\n{index}\n"))
            + &format!("\n[[access_pattern]]\nname = \"Read\"\ntable = \"orders.by_x\"\noperation = \"query\"\nrate = 5\nby = \"customer\"\n{read}\n")
    };
    let global = "name = \"by_x\"\npartition_key = \"C#{customer}\"\nsort_key = \"{time}\"";
    let e = error(&with(global, "consistency = \"strong\""));
    assert!(
        e.contains("s.toml:35:15: access_pattern.Read.consistency: a DynamoDB global secondary index (`orders.by_x`) supports eventually consistent reads only")
            && e.contains("fix: remove consistency (eventual is the default)"),
        "{e}"
    );
    assert!(error(&with(global, "consistency = \"transactional\""))
        .contains("eventually consistent reads only"));
    for ok in ["consistency = \"eventual\"", ""] {
        Scenario::from_str_at(&with(global, ok), "s.toml").expect("an eventual read");
    }
    let local = "name = \"by_x\"\nlocal = true\nsort_key = \"{time}\"";
    Scenario::from_str_at(&with(local, "consistency = \"strong\""), "s.toml")
        .expect("an LSI reads strongly");
    let e = error(&with("name = \"by_x\"\nlocal = true", ""));
    assert!(
        e.contains("missing `sort_key` in [[table.index]]")
            && e.contains("a local index keeps its table's partition key"),
        "{e}"
    );
}

/// A key template that escapes a placeholder's braces (`{{customer}}`)
/// writes the literal text `{customer}`: every item shares it. It warns
/// where it is written, with the placeholder and the hash-tag spellings as
/// fixes; literal braces around a placeholder (`{{{customer}}}`) and
/// escaped braces around other text do not warn.
#[test]
fn an_escaped_placeholder_in_a_key_warns_where_it_is_written() {
    let text = base_with(
        "partition_key = \"CUSTOMER#{customer}\"",
        "partition_key = \"CUSTOMER#{{customer}}\"",
    );
    let s = Scenario::from_str_at(&text, "k.toml").expect("valid, with a warning");
    let shown: Vec<String> = s.warnings.iter().map(ToString::to_string).collect();
    assert_eq!(
        shown,
        vec![
            "k.toml:13:17: warning: table.orders.partition_key: `{{customer}}` writes the literal \
             text `{customer}`, not a placeholder: every item has the same text there (`{{` and \
             `}}` are escaped braces)\n  fix: write partition_key = \"CUSTOMER#{customer}\" for \
             the customer's value, or \"CUSTOMER#{{{customer}}}\" for literal braces around it \
             (a Redis hash tag)"
                .to_string()
        ]
    );
    for quiet in ["CUSTOMER#{{{customer}}}", "CUSTOMER#{{v2}}#{customer}"] {
        let text = base_with(
            "partition_key = \"CUSTOMER#{customer}\"",
            &format!("partition_key = \"{quiet}\""),
        );
        let s = Scenario::from_str_at(&text, "k.toml").expect("valid");
        assert!(s.warnings.is_empty(), "{quiet}: {:?}", s.warnings);
    }
}

/// A table that starts empty (`initial_items` left at 0) and that no
/// pattern puts or appends to stores nothing: a warning at its name. A put,
/// an append or any `initial_items` above 0 silences it.
#[test]
fn a_table_nothing_fills_warns_at_its_name() {
    let read_only = base_with("operation = \"put\"", "operation = \"get\"");
    let s = Scenario::from_str_at(&read_only, "k.toml").expect("valid, with a warning");
    let shown: Vec<String> = s.warnings.iter().map(ToString::to_string).collect();
    assert_eq!(
        shown,
        vec![
            "k.toml:12:8: warning: table.orders.name: table `orders` starts empty \
             (initial_items = 0, the default) and no access pattern puts or appends to it: it \
             stores nothing, so its partition sizes, stored bytes and memory are 0 B\n  fix: set \
             initial_items to the items each partition key already holds at day 0 (e.g. \
             initial_items = 1 for one item per key), or add the put pattern that fills the table"
                .to_string()
        ]
    );
    let updated = base_with("operation = \"put\"", "operation = \"update\"");
    let warned = Scenario::from_str_at(&updated, "k.toml")
        .expect("valid")
        .warnings;
    assert_eq!(warned.len(), 1);
    assert!(
        warned[0]
            .to_string()
            .contains("puts or appends to it (its updates rewrite items that exist and add none)"),
        "{}",
        warned[0]
    );
    for quiet in [
        BASE.to_string(),
        read_only.replace(
            "item_size = \"2KB\"",
            "item_size = \"2KB\"\ninitial_items = 3",
        ),
    ] {
        let s = Scenario::from_str_at(&quiet, "k.toml").expect("valid");
        assert!(s.warnings.is_empty(), "{quiet}: {:?}", s.warnings);
    }
}

/// A new user's natural mistakes, each answered with the user's own value:
/// a store or operation word in another case is read; another language's
/// operation name (`insert`) is told keyheat's; a quoted percentage for a
/// fraction is told the fraction; a missing `table` is told a declared one;
/// a bare `growth` of 1 warns that it is +100%/month; and an error past a
/// warning carries the warning (a bucket of `1` is one second, whose
/// fan-out fails on the query's line).
#[test]
fn natural_mistakes_are_answered_with_the_users_own_values() {
    let ok = |text: &str| Scenario::from_str_at(text, "k.toml").expect("valid");
    let s = ok(&base_with("kind = \"dynamodb\"", "kind = \"DynamoDB\"")
        .replace("operation = \"put\"", "operation = \"PUT\""));
    assert_eq!(s.store.kind, keyheat::scenario::StoreKind::DynamoDb);
    assert_eq!(s.access_patterns[0].operation, Operation::Put);

    let e = error(&base_with("operation = \"put\"", "operation = \"insert\""));
    assert!(
        e.contains("unknown value `insert`; keyheat calls this operation `put`")
            && e.contains("fix: write operation = \"put\" (writes a new item"),
        "{e}"
    );

    let e = error(&base_with("operation = \"put\"", "operation = \"replace\""));
    assert!(e.contains("keyheat calls this operation `update`"), "{e}");
    let e = error(&base_with("operation = \"put\"", "operation = \"read\""));
    assert!(
        e.contains("keyheat has two reads: `get` and `query`")
            && e.contains("fix: write operation = \"get\" (")
            && e.contains(" or operation = \"query\" ("),
        "{e}"
    );
    let e = error(&base_with(
        "by = \"customer\"",
        "by = \"customer\"\nconsistency = \"session\"",
    ));
    assert!(
        e.contains("`session` is a Cosmos DB account level")
            && e.contains("[store] default_consistency = \"session\""),
        "{e}"
    );
    let e = error(&base_with(
        "kind = \"dynamodb\"",
        "kind = \"dynamodb\"\n[simulation]\ngrowth = \"6%\"",
    ));
    assert!(
        e.contains("fix: write it like growth = \"6%/month\""),
        "{e}"
    );

    let e = error(&base_with(
        "count = 1000",
        "count = 1000\npopularity = { distribution = \"hotspot\", hot_fraction = 0.01, hot_share = \"30%\" }",
    ));
    assert!(
        e.contains("fix: write hot_share = 0.3 (a fraction: 30% is 0.3)"),
        "{e}"
    );

    let e = error(&base_with("table = \"orders\"\n", ""));
    assert!(e.contains("fix: add table = \"orders\""), "{e}");
    let e = error(
        &base_with("table = \"orders\"\n", "").replace("name = \"orders\"", "name = \"readings\""),
    );
    assert!(e.contains("fix: add table = \"readings\""), "{e}");

    let s = ok(&base_with(
        "kind = \"dynamodb\"",
        "kind = \"dynamodb\"\n[simulation]\ngrowth = 1",
    ));
    let shown: Vec<String> = s.warnings.iter().map(ToString::to_string).collect();
    assert_eq!(shown.len(), 1, "{shown:?}");
    assert!(
        shown[0]
            .contains("growth = 1 has no unit, so it is read as a fraction per month: +100%/month")
            && shown[0].contains(
                "fix: write growth = \"1%/month\" if 1% is meant, or growth = \"100%/month\""
            ),
        "{}",
        shown[0]
    );
    // 5%/month as a bare fraction is what the schema says: no warning.
    let s = ok(&base_with(
        "kind = \"dynamodb\"",
        "kind = \"dynamodb\"\n[simulation]\ngrowth = 0.05",
    ));
    assert!(s.warnings.is_empty(), "{:?}", s.warnings);

    // A Cosmos DB partition key path where the value was meant.
    let s = ok(&base_with(
        "partition_key = \"CUSTOMER#{customer}\"",
        "partition_key = \"/customerId\"",
    ));
    let shown: Vec<String> = s.warnings.iter().map(ToString::to_string).collect();
    assert_eq!(shown.len(), 1, "{shown:?}");
    assert!(
        shown[0].contains("partition_key `/customerId` looks like a partition key path")
            && shown[0].contains(
                "fix: write the value it takes, from an entity: partition_key = \"{customer}\""
            ),
        "{}",
        shown[0]
    );

    let bucketed = base_with("item_size = \"2KB\"", "item_size = \"2KB\"\nsort_key = \"{time}\"\nbucket = 1")
        .replace("partition_key = \"CUSTOMER#{customer}\"", "partition_key = \"CUSTOMER#{customer}#{bucket}\"")
        + "\n[[access_pattern]]\nname = \"Last 3 days\"\ntable = \"orders\"\noperation = \"query\"\nrate = 5\nby = \"customer\"\nrange = \"3d\"\n";
    let e = error(&bucketed);
    assert!(e.contains("259,200 queries per operation"), "{e}");
    assert!(
        e.contains("\n  note: s.toml:")
            && e.contains("bucket = 1 has no unit, so it is read as 1 second"),
        "{e}"
    );
}

/// A product's other name for a store keyheat models (helper-47's
/// `kind = "firebase"` listed the kinds with no hint): the store it is.
#[test]
fn firebase_as_a_store_kind_points_to_firestore() {
    let text = base_with("kind = \"dynamodb\"", "kind = \"Firebase\"");
    let e = Scenario::from_str_at(&text, "k.toml")
        .expect_err("refused")
        .to_string();
    assert!(
        e.contains(
            "store.kind: unknown value `Firebase`; keyheat models that store as `firestore`"
        ) && e.contains("fix: write kind = \"firestore\""),
        "{e}"
    );
}

/// A horizon of minutes projects sizes and breaches minutes ahead: `m` is
/// minutes, so a new user's `horizon = "12m"` (months meant) turned a
/// design that fills 20 GB on day 29.6 into a pass without a word. It
/// warns where it is written with the months' spelling; any horizon under
/// a day warns; a day or more does not.
#[test]
fn a_horizon_of_minutes_warns_with_the_months_spelling() {
    let with = |horizon: &str| {
        let text = base_with(
            "name = \"errs\"\n",
            &format!(
                "name = \"errs\"\n[simulation]\nduration = \"10m\"\nhorizon = \"{horizon}\"\n"
            ),
        );
        let s = Scenario::from_str_at(&text, "h.toml").expect("valid, with warnings");
        s.warnings
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
    };
    let shown = with("12m");
    assert_eq!(shown.len(), 1, "{shown:#?}");
    assert_eq!(
        shown[0],
        "h.toml:5:11: warning: simulation.horizon: horizon = \"12m\" is 12 min (m is minutes): sizes, growth and breaches are projected only 12 min ahead\n  \
         fix: write horizon = \"12mo\" for 12 months (mo is a month of 30 days), or e.g. horizon = \"365d\""
    );
    let shown = with("6h");
    assert_eq!(shown.len(), 1, "{shown:#?}");
    assert!(
        shown[0].contains("the horizon (6 h) is shorter than a day"),
        "{}",
        shown[0]
    );
    assert!(with("1d").is_empty());
    assert!(with("12mo").is_empty());
    // The recommendation that keeps the base says how short its horizon is.
    let text = format!(
        "{}[simulation]\ntrials = 20\nduration = \"1m\"\nhorizon = \"12m\"\n[[variant]]\nname = \"more\"\nset = {{ \"access_pattern.Create order.rate\" = 60 }}\n",
        BASE
    );
    let r = crate::util::run(&text);
    let reason = r
        .recommendation
        .expect("a variant: a recommendation")
        .reason;
    assert!(
        reason.ends_with("; over a horizon of 12 min only, as the warning says: sizes and growth are not projected further"),
        "{reason}"
    );
}

/// A variant that changes `store.kind` keeps the base's `[store]` keys:
/// where the new store does not take one, the error is the variant's and
/// its fix says why and what to do (helper-55: MongoDB's `shards` under a
/// variant's Cassandra read as a fault of the base's line).
#[test]
fn a_variant_changing_the_store_kind_says_the_base_keys_stay() {
    let text = "schema_version = 1\nname = \"k\"\n[store]\nkind = \"mongodb\"\nshards = 6\n[[entity]]\nname = \"user\"\ncount = 1000\n[[table]]\nname = \"t\"\npartition_key = \"U#{user}\"\nitem_size = \"1KB\"\n[[access_pattern]]\nname = \"w\"\ntable = \"t\"\noperation = \"put\"\nrate = 10\nby = \"user\"\n[[variant]]\nname = \"on-cassandra\"\nset = { \"store.kind\" = \"cassandra\" }\n";
    let s = Scenario::from_str_at(text, "k.toml").expect("parses");
    let Err(e) = keyheat::store::Model::for_scenario(&s) else {
        panic!("cassandra takes no `shards`");
    };
    let e = e.to_string();
    assert!(
        e.starts_with(
            "k.toml:5:1: store.shards: variant `on-cassandra` (line 19): unknown key `shards`"
        ),
        "{e}"
    );
    assert!(
        e.ends_with("; the variant sets store.kind, and the base's [store] keys still apply to the new store, which does not take this one: compare stores as whole files with `keyheat compare base.toml other.toml`"),
        "{e}"
    );
}

/// A number written with thousands commas keeps its number in the fix, in a
/// duration and in a store setting's size as in an item size (a new user's
/// `logical_partition_limit = "5,000MB"` was offered "10GB").
#[test]
fn thousands_commas_are_dropped_in_the_fix() {
    let store = base_with(
        "kind = \"dynamodb\"",
        "kind = \"cosmosdb\"\nlogical_partition_limit = \"5,000MB\"",
    );
    assert!(
        error(&store).ends_with("fix: write logical_partition_limit = \"5000MB\""),
        "{}",
        error(&store)
    );
    let duration = base_with("[store]", "[simulation]\nduration = \"1,800s\"\n\n[store]");
    assert!(
        error(&duration).ends_with("fix: write duration = \"1800s\""),
        "{}",
        error(&duration)
    );
}

/// A misspelt capacity in [store] is reported at its key, not as a
/// `[pricing]` rate with no units to price (a new user's `througput`
/// was reported at `read_unit_hour`, 54 lines below).
#[test]
fn a_misspelt_capacity_is_reported_before_the_pricing_it_leaves_unpriced() {
    for (kind, typo, capacity) in [
        ("cosmosdb", "througput", "throughput"),
        ("dynamodb", "read_capacty", "read_capacity"),
    ] {
        let text = base_with(
            "kind = \"dynamodb\"",
            &format!("kind = \"{kind}\"\n{typo} = 30000"),
        ) + "\n[pricing]\nread_unit_hour = 0.00008\n";
        assert_eq!(
            error(&text),
            format!(
                "s.toml:6:1: store.{typo}: unknown key `{typo}`; did you mean `{capacity}`?\n  \
                 fix: rename `{typo}` to `{capacity}`"
            )
        );
    }
}

/// A number written with thousands commas, as a string or bare (which TOML
/// cannot read), is fixed with the user's number grouped as TOML groups
/// digits (helper-64's `count = "3,000,000"` was offered `1_000_000`, and
/// the bare one told to quote strings).
#[test]
fn a_count_with_thousands_commas_keeps_its_number() {
    assert_eq!(
        error(&base_with("count = 1000", "count = \"3,000,000\"")),
        "s.toml:9:9: entity.customer.count: expected an integer, found string `\"3,000,000\"`\n  \
         fix: write count = 3_000_000"
    );
    let bare = error(&base_with("count = 1000", "count = 3,000,000"));
    assert!(
        bare.starts_with("s.toml:9:10: syntax: invalid TOML")
            && bare.ends_with(
                "fix: write count = 3_000_000: TOML numbers group digits with `_`, not commas"
            ),
        "{bare}"
    );
}

/// A count with a multiplier (`"1.5M"`, `"2 million"`, `"40k"`) is fixed
/// with the number it means, written out (helper-68's `"1.5M"` was offered
/// `count = 1_000_000`).
#[test]
fn a_count_with_a_multiplier_is_written_out_in_the_fix() {
    for (written, fix) in [
        ("\"1.5M\"", "1_500_000"),
        ("\"2 million\"", "2_000_000"),
        ("\"40k\"", "40_000"),
        ("\"1.2bn\"", "1_200_000_000"),
    ] {
        let e = error(&base_with("count = 1000", &format!("count = {written}")));
        assert!(
            e.starts_with("s.toml:9:9: entity.customer.count: expected an integer")
                && e.ends_with(&format!("fix: write count = {fix}")),
            "{e}"
        );
    }
}

/// An index named where a table is expected points to its table: in an
/// access pattern's `table` ("orders.by_status") and in a variant's path
/// ("table.orders.index.by_status.shards"); helper-64's variant path was
/// offered "table.orders.shards", which shards the base table.
#[test]
fn an_index_named_as_a_table_points_to_its_table() {
    let with_index = base_with(
        "item_size = \"2KB\"",
        "item_size = \"2KB\"\n\n[[table.index]]\nname = \"by_status\"\npartition_key = \"S#{customer}\"",
    );
    let pattern = with_index.replace("table = \"orders\"", "table = \"by_status\"");
    assert!(
        error(&pattern).ends_with(
            "table `by_status` is not declared (declared: `orders`): `by_status` is an index of table `orders`\n  \
             fix: write table = \"orders.by_status\""
        ),
        "{}",
        error(&pattern)
    );
    let variant = format!(
        "{with_index}\n[[variant]]\nname = \"v\"\nset = {{ \"table.by_status.shards\" = 8 }}\n"
    );
    assert!(
        error(&variant).ends_with(
            "there is no table named `by_status` (declared: `orders`): `by_status` is an index of table `orders`\n  \
             fix: write \"table.orders.index.by_status.shards\""
        ),
        "{}",
        error(&variant)
    );
    // helper-90 misspelt both the table and its index: both are offered
    // (the fix had been "table.orders.shards", whatever the names).
    let misspelt = variant.replace("table.by_status.shards", "table.order.index.by_stat.shards");
    assert!(
        error(&misspelt).ends_with(
            "there is no table named `order` (declared: `orders`); did you mean `orders`?\n  \
             fix: write \"table.orders.index.by_status.shards\""
        ),
        "{}",
        error(&misspelt)
    );
}

/// `initial_items` on a partition key holding `{time}` counts nothing (each
/// item is a key of its own): warned at its line, with the key that counts
/// it (helper-68's `{user}#{time}` with 40 items a user stored 0 B at day
/// 0, silently). Without `{time}` / `{id}` it is not warned.
#[test]
fn initial_items_on_a_time_key_is_warned() {
    let text = base_with(
        "partition_key = \"CUSTOMER#{customer}\"\nitem_size = \"2KB\"",
        "partition_key = \"{customer}#{time}\"\nitem_size = \"2KB\"\ninitial_items = 40",
    );
    let s = Scenario::from_str_at(&text, "s.toml").expect("valid, with warnings");
    let w: Vec<String> = s
        .warnings
        .iter()
        .map(ToString::to_string)
        .filter(|w| w.contains("initial_items"))
        .collect();
    assert_eq!(w.len(), 1, "{w:?}");
    assert!(
        w[0].starts_with("s.toml:15:17: warning: table.orders.initial_items: initial_items is not counted: the partition key `{customer}#{time}` holds {time}")
            && w[0].contains("key by {customer} with sort_key = \"{time}\""),
        "{}",
        w[0]
    );
    let plain = base_with(
        "item_size = \"2KB\"",
        "item_size = \"2KB\"\ninitial_items = 40",
    );
    let s = Scenario::from_str_at(&plain, "s.toml").expect("valid");
    assert!(s.warnings.is_empty(), "{:#?}", s.warnings);
}

/// A rate that reads like a slip warns where it is written (helper-75):
/// 26,000,000 a second (a day's count written bare), `"780M/m"` (`m` is
/// minutes: 13,000,000 a second), and `peak_factor = 300` (a percentage).
/// A rate of a million a second or less, per `min`, and a peak factor of
/// 50 or less do not.
#[test]
fn implausible_rates_warn_where_they_are_written() {
    let warned = |from: &str, to: &str| -> Vec<String> {
        let text = base_with(from, to);
        let s = Scenario::from_str_at(&text, "r.toml").expect("valid, with warnings");
        s.warnings.iter().map(ToString::to_string).collect()
    };
    let bare = warned("rate = 50", "rate = 26_000_000");
    assert!(
        bare.iter().any(|w| w.contains(
            "rate = 26_000_000 is 26,000,000 operations per second on one pattern: more than a million"
        ) && w.contains("fix: write the period with the count (rate = \"26M/day\"")),
        "{bare:#?}"
    );
    let minutes = warned("rate = 50", "rate = \"780M/m\"");
    assert!(
        minutes.iter().any(|w| w.contains(
            "rate = \"780M/m\" is per minute (13,000,000 operations per second): `m` is minutes"
        )),
        "{minutes:#?}"
    );
    // A burst of factor 300 (helper-82) as a peak factor of 300; 3 is quiet.
    let burst = |factor: u32| {
        warned(
            "kind = \"dynamodb\"",
            &format!(
                "kind = \"dynamodb\"\n[simulation]\nbursts = [{{ at = \"1m\", length = \"1m\", factor = {factor} }}]"
            ),
        )
    };
    let shown = burst(300);
    assert!(
        shown.iter().any(|w| w.contains(
            "simulation.bursts: bursts[0] has factor = 300: its windows ask 300× the busy rate, likelier a percentage"
        )),
        "{shown:#?}"
    );
    assert!(!burst(3).iter().any(|w| w.contains("bursts")));
    // Checkpoints in minutes where months were meant (helper-85).
    let shown = warned(
        "kind = \"dynamodb\"",
        "kind = \"dynamodb\"\n[simulation]\nhorizon = \"365d\"\ncheckpoints = [\"0d\", \"6m\", \"180d\"]",
    );
    assert!(
        shown
            .iter()
            .any(|w| w.contains("checkpoint \"6m\" is 6 min (m is minutes)")
                && w.contains("fix: write \"6mo\" for 6 × 30 days")),
        "{shown:#?}"
    );
    assert_eq!(
        shown.iter().filter(|w| w.contains("checkpoint \"")).count(),
        1,
        "{shown:#?}"
    );
    // A rate per day with its words: the day kept (helper-85 was offered
    // "144M/s").
    let e = error(&base_with("rate = 50", "rate = \"144M per day\""));
    assert!(e.contains("fix: write rate = \"144M/d\""), "{e}");
    let percent = warned("rate = 50", "rate = 50\npeak_factor = 300");
    assert!(
        percent.iter().any(|w| w.contains(
            "peak_factor = 300 makes the busy period 300× the mean rate: likelier a percentage"
        )),
        "{percent:#?}"
    );
    for quiet in [
        "rate = 1_000_000",
        "rate = \"780k/min\"",
        "rate = 50\npeak_factor = 50",
    ] {
        let shown = warned("rate = 50", quiet);
        assert!(
            !shown
                .iter()
                .any(|w| w.contains(".rate:") || w.contains(".peak_factor:")),
            "{quiet}: {shown:#?}"
        );
    }
}

/// An index keyed exactly as its table warns at its key (helper-78's
/// global index with the table's own partition and sort keys was accepted
/// without a word); one keyed otherwise does not.
#[test]
fn an_index_keyed_as_its_table_warns() {
    let text = |pk: &str| {
        format!(
            "schema_version = 1\nname = \"d\"\n[store]\nkind = \"dynamodb\"\n[[entity]]\nname = \"user\"\ncount = 1000\n[[table]]\nname = \"t\"\npartition_key = \"U#{{user}}\"\nsort_key = \"{{time}}\"\nitem_size = \"1KB\"\n[[table.index]]\nname = \"copy\"\npartition_key = \"{pk}\"\nsort_key = \"{{time}}\"\n[[access_pattern]]\nname = \"w\"\ntable = \"t\"\noperation = \"put\"\nrate = 10\nby = \"user\"\n"
        )
    };
    let s = Scenario::from_str_at(&text("U#{user}"), "d.toml").expect("valid, with a warning");
    let shown: Vec<String> = s.warnings.iter().map(ToString::to_string).collect();
    assert_eq!(shown.len(), 1, "{shown:#?}");
    assert!(
        shown[0].starts_with("d.toml:16:12: warning: table.t.index.copy.sort_key: index `copy` is keyed exactly as table `t` (`U#{user}` / `{time}`)"),
        "{}",
        shown[0]
    );
    let s = Scenario::from_str_at(&text("X#{user}"), "d.toml").expect("valid");
    assert!(s.warnings.is_empty(), "{:?}", s.warnings);
}

/// A range past the ttl says both durations as the other warnings do
/// (helper-77 read a 90 s ttl as "1.5 min" in one warning and "0.025 h"
/// in this one).
#[test]
fn a_range_past_the_ttl_gives_durations_in_one_style() {
    let text = "schema_version = 1\nname = \"r\"\n[store]\nkind = \"cassandra\"\nnodes = 3\n[[entity]]\nname = \"user\"\ncount = 1000\n[[table]]\nname = \"t\"\npartition_key = \"U#{user}#{bucket}\"\nsort_key = \"{time}\"\nbucket = \"1h\"\nitem_size = \"1KB\"\nttl = \"90s\"\n[[access_pattern]]\nname = \"q\"\ntable = \"t\"\noperation = \"query\"\nitems = 10\nrange = \"1d\"\nrate = 10\nby = \"user\"\n";
    let s = Scenario::from_str_at(text, "r.toml").expect("valid, with a warning");
    let shown: Vec<String> = s.warnings.iter().map(ToString::to_string).collect();
    assert!(
        shown.iter().any(|w| w.contains(
            "range \"1d\" (24 h) reads further back than table `t`'s ttl keeps items (1.5 min)"
        )),
        "{shown:#?}"
    );
}

#[test]
fn a_stores_own_words_name_keyheats() {
    // New users wrote their store's own names: a product name for the kind,
    // AWS's BillingMode, MongoDB's "partitions" for its shards, Bigtable's
    // API call for the operation.
    assert_eq!(
        error(&base_with("kind = \"dynamodb\"", "kind = \"cloud-bigtable\"")),
        "s.toml:5:8: store.kind: unknown value `cloud-bigtable`; keyheat models that store as `bigtable`\n  fix: write kind = \"bigtable\""
    );
    assert_eq!(
        error(&base_with(
            "kind = \"dynamodb\"",
            "kind = \"dynamodb\"\nmode = \"PAY_PER_REQUEST\""
        )),
        "s.toml:6:8: store.mode: unknown value `PAY_PER_REQUEST`; keyheat calls it `on_demand` (DynamoDB's BillingMode for on-demand capacity)\n  fix: write mode = \"on_demand\""
    );
    assert_eq!(
        error(&base_with(
            "kind = \"dynamodb\"",
            "kind = \"mongodb\"\npartitions = 6"
        )),
        "s.toml:6:1: store.partitions: unknown key `partitions`; keyheat calls it `shards` (a sharded collection's servers; its partitions are chunks, `chunks`)\n  fix: rename `partitions` to `shards`"
    );
    assert!(error(&base_with(
        "operation = \"put\"",
        "operation = \"MutateRow\""
    ))
    .contains("unknown value `MutateRow`; keyheat calls this operation `put`"));
    assert!(error(&base_with(
        "operation = \"put\"",
        "operation = \"ReadRows\""
    ))
    .contains("unknown value `ReadRows`; keyheat calls this operation `query`"));
    // helper-89 wrote CQL's table option, and a month as `1M` (the fix had
    // offered `1m`: a one-minute ttl).
    assert_eq!(
        error(&base_with("item_size = \"2KB\"", "item_size = \"2KB\"\ndefault_time_to_live = 2592000")),
        "s.toml:15:1: table.orders.default_time_to_live: unknown key `default_time_to_live`; keyheat calls it `ttl` (CQL's table option, as a duration such as \"30d\")\n  fix: rename `default_time_to_live` to `ttl`"
    );
    let e = error(&base_with(
        "item_size = \"2KB\"",
        "item_size = \"2KB\"\nttl = \"1M\"",
    ));
    assert!(e.ends_with("fix: write ttl = \"1mo\""), "{e}");
    // helper-86 wrote Cosmos DB's autoscale maximum; with a [pricing] of RU/s
    // hours, the pricing check had reported the missing `throughput` first.
    let autoscale = "kind = \"cosmosdb\"\nautoscale_max_throughput = 20000";
    let e = error(&base_with("kind = \"dynamodb\"", autoscale));
    assert!(
        e.starts_with("s.toml:6:1: store.autoscale_max_throughput: unknown key `autoscale_max_throughput`; keyheat calls it `throughput` (keyheat models provisioned RU/s, not autoscale"),
        "{e}"
    );
    let priced = format!("{autoscale}\n[pricing]\nread_unit_hour = 0.00008");
    let e = error(&base_with("kind = \"dynamodb\"", &priced));
    assert!(
        e.starts_with("s.toml:6:1: store.autoscale_max_throughput: unknown key `autoscale_max_throughput`; did you mean `throughput`?"),
        "{e}"
    );
}

#[test]
fn a_file_keyheat_imports_and_a_shard_key_document_say_how_to_write_them() {
    // helper-81 gave `run` its mongosh script, and wrote MongoDB's shard-key
    // document as the partition key.
    let e = Scenario::from_str_at(
        "sh.shardCollection(\"db.events\", { deviceId: \"hashed\" })\n",
        "init.js",
    )
    .unwrap_err()
    .to_string();
    assert!(
        e.contains("fix: a scenario is TOML; to draft one from this .js file run `keyheat import mongodb init.js > design.toml`"),
        "{e}"
    );
    let e = error(&base_with(
        "partition_key = \"CUSTOMER#{customer}\"",
        "partition_key = \"{ customerId: 'hashed' }\"",
    ));
    assert!(
        e.contains("a document of fields and values (a MongoDB shard key?)")
            && e.contains("{ deviceId: \"hashed\" } is partition_key = \"{device}\" with shard_key = \"hashed\""),
        "{e}"
    );
}
