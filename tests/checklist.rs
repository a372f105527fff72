//! The design-review checklist (`keyheat::verdicts::checklist::review`): one small
//! scenario per rule, asserting the status of each row.

use crate::util::scenario;
use keyheat::results::{ChecklistItem, Status};
use keyheat::verdicts::checklist::review;

/// A scenario with the given entities, tables and patterns (TOML fragments).
fn doc(body: &str) -> String {
    format!(
        "schema_version = 1\nname = \"t\"\n[store]\nkind = \"generic\"\n\
         [[entity]]\nname = \"customer\"\ncount = 1_000_000\n\
         [[entity]]\nname = \"status\"\npopularity = {{ distribution = \"weights\", weights = [70, 20, 10] }}\n\
         [[entity]]\nname = \"region\"\ncount = 500\n\
         {body}"
    )
}

fn rows(body: &str) -> Vec<ChecklistItem> {
    review(&scenario(&doc(body)))
}

/// The status of `check` on `subject`, failing when there is no such row.
fn status(items: &[ChecklistItem], check: &str, subject: &str) -> Status {
    match items
        .iter()
        .find(|c| c.check == check && c.subject == subject)
    {
        Some(c) => c.status,
        None => panic!("no {check} row for {subject}: {items:#?}"),
    }
}

fn reason<'a>(items: &'a [ChecklistItem], check: &str, subject: &str) -> &'a str {
    items
        .iter()
        .find(|c| c.check == check && c.subject == subject)
        .map(|c| c.reason.as_str())
        .unwrap_or_else(|| panic!("no {check} row for {subject}"))
}

const ORDERS: &str = "[[table]]\nname = \"orders\"\npartition_key = \"CUSTOMER#{customer}\"\nsort_key = \"ORDER#{time}\"\nitem_size = \"1KB\"\n";

fn pattern(name: &str, table: &str, op: &str, by: Option<&str>) -> String {
    let by = by.map_or(String::new(), |b| format!("by = \"{b}\"\n"));
    let extra = if op == "append" {
        "element_size = \"100B\"\n"
    } else {
        ""
    };
    format!(
        "[[access_pattern]]\nname = \"{name}\"\ntable = \"{table}\"\noperation = \"{op}\"\nrate = 10\n{by}{extra}"
    )
}

#[test]
fn every_check_appears_in_order() {
    let items = rows(&format!(
        "{ORDERS}{}",
        pattern("Get orders", "orders", "query", Some("customer"))
    ));
    let mut checks: Vec<&str> = items.iter().map(|c| c.check.as_str()).collect();
    checks.dedup();
    assert_eq!(
        checks,
        [
            "access_path",
            "key_cardinality",
            "range_sort",
            "bounded_arrays",
            "copy_write_path",
            "ephemeral_ttl",
            "blob_offload"
        ]
    );
    // a well-keyed table passes everything
    assert!(items.iter().all(|c| c.status == Status::Pass), "{items:#?}");
    // no append pattern: one row saying there is nothing to check
    assert_eq!(status(&items, "bounded_arrays", "-"), Status::Pass);
}

#[test]
fn a_read_by_an_entity_not_in_the_key_is_a_scan() {
    let items = rows(&format!(
        "{ORDERS}{}{}{}{}",
        pattern("By customer", "orders", "query", Some("customer")),
        pattern("By status", "orders", "query", Some("status")),
        pattern("No by", "orders", "get", None),
        pattern("Create", "orders", "put", Some("status")),
    ));
    assert_eq!(status(&items, "access_path", "By customer"), Status::Pass);
    assert_eq!(status(&items, "access_path", "By status"), Status::Fail);
    let why = reason(&items, "access_path", "By status");
    assert!(
        why.contains("By status") || why.contains("{status}"),
        "{why}"
    );
    assert!(why.contains("CUSTOMER#{customer}"), "{why}");
    assert!(why.contains("scan") && why.contains("index"), "{why}");
    // The read's figures are the query written, and the reason says so
    // (a new user saw "a scan" here and a 3.5 RCU query in patterns.csv).
    let as_written = "Its load and capacity units are simulated as written: one key a request, the key's entities drawn from their popularity; operation = \"scan\" sizes it as the scan it is";
    assert!(why.ends_with(as_written), "{why}");
    assert_eq!(status(&items, "access_path", "No by"), Status::Fail);
    assert!(reason(&items, "access_path", "No by").ends_with(as_written));
    // a put writes its whole key: no lookup
    assert_eq!(status(&items, "access_path", "Create"), Status::Pass);
}

#[test]
fn a_read_of_a_constant_partition_key_is_one_read_not_a_scan() {
    // A leaderboard: one sorted set (a constant key), the player its member
    // (the sort key). ZSCORE of a player reads that one key; no scan, and
    // the hot key is key_cardinality's to judge.
    let table = "[[table]]\nname = \"board\"\npartition_key = \"leaderboard\"\nsort_key = \"{customer}\"\nitem_size = \"100B\"\ninitial_items = 1000\n";
    let items = rows(&format!(
        "{table}{}{}",
        pattern("Score of one", "board", "get", Some("customer")),
        pattern("Top ten", "board", "query", None),
    ));
    assert_eq!(status(&items, "access_path", "Score of one"), Status::Pass);
    let why = reason(&items, "access_path", "Score of one");
    assert!(!why.contains("scan"), "{why}");
    assert!(
        why.contains("`leaderboard`") && why.contains("sort key `{customer}`"),
        "{why}"
    );
    assert_eq!(status(&items, "access_path", "Top ten"), Status::Pass);
    assert_eq!(status(&items, "key_cardinality", "board"), Status::Fail);
    // The day's orders read by a customer: the customer's are filtered from
    // the day's partition (a warning), not found by a scan of the table.
    let table = "[[table]]\nname = \"daily\"\npartition_key = \"DATE#{bucket}\"\nsort_key = \"ORDER#{id}\"\nitem_size = \"1KB\"\nbucket = \"1d\"\n";
    let items = rows(&format!(
        "{table}{}",
        pattern("Orders of a day", "daily", "query", Some("customer"))
    ));
    assert_eq!(
        status(&items, "access_path", "Orders of a day"),
        Status::Warn
    );
    let why = reason(&items, "access_path", "Orders of a day");
    assert!(why.contains("filtering") && !why.contains("scan"), "{why}");
}

#[test]
fn reads_are_named_as_the_store_calls_them() {
    let body = format!(
        "{ORDERS}{}",
        pattern("By customer", "orders", "get", Some("customer"))
    );
    for (kind, settings, call) in [
        (
            "dynamodb",
            "read_capacity = 100\nwrite_capacity = 100\n",
            "GetItem on `orders`",
        ),
        ("mongodb", "shards = 2\n", "findOne on `orders`"),
        (
            "redis-cluster",
            "masters = 3\n",
            "a read of one key on `orders`",
        ),
        ("generic", "", "a get on `orders`"),
    ] {
        let text = doc(&body).replace(
            "kind = \"generic\"\n",
            &format!("kind = \"{kind}\"\n{settings}"),
        );
        let items = review(&scenario(&text));
        let why = reason(&items, "access_path", "By customer");
        assert!(
            why.starts_with(&format!("resolves to {call}")),
            "{kind}: {why}"
        );
    }
}

/// A read by the entity of the sort key, the partition key built from
/// another: a scan, whose remedy is the store's own (Redis Cluster has no
/// secondary index: a new user was told to add a global index there), and
/// which names the likelier mistake: `by` should be the partition key's
/// entity when the caller holds it (a Redis leaderboard's ZREVRANK of a
/// player in `lb:{board}`).
#[test]
fn a_read_by_the_sort_keys_entity_names_the_stores_remedy_and_the_by_to_set() {
    let table = "[[table]]\nname = \"boards\"\npartition_key = \"lb:{region}\"\nsort_key = \"{customer}\"\nitem_size = \"100B\"\ninitial_items = 1000\n";
    let body = format!(
        "{table}{}{ORDERS}{}",
        pattern("My rank", "boards", "get", Some("customer")),
        pattern("By status", "orders", "query", Some("status")),
    );
    for (kind, settings, remedy) in [
        (
            "redis-cluster",
            "masters = 3\n",
            "keep a second key per {customer} that your writes update alongside (Redis Cluster has no secondary index",
        ),
        (
            "dynamodb",
            "read_capacity = 100\nwrite_capacity = 100\n",
            "add a global index ([[table.index]]) whose partition_key starts with {customer}",
        ),
    ] {
        let text = doc(&body).replace(
            "kind = \"generic\"\n",
            &format!("kind = \"{kind}\"\n{settings}"),
        );
        let items = review(&scenario(&text));
        assert_eq!(status(&items, "access_path", "My rank"), Status::Fail);
        let why = reason(&items, "access_path", "My rank");
        assert!(why.contains(&format!("Fix: {remedy}")), "{kind}: {why}");
        assert!(
            why.contains("If the caller also holds {region} ({customer} is in the sort key), this is one read: set `by = \"region\"`."),
            "{kind}: {why}"
        );
        // {status} is in neither key: no `by` to suggest.
        let why = reason(&items, "access_path", "By status");
        assert!(!why.contains("If the caller also holds"), "{kind}: {why}");
    }
}

#[test]
fn an_index_keyed_by_the_argument_resolves_the_read() {
    let table = "[[table]]\nname = \"orders\"\npartition_key = \"CUSTOMER#{customer}\"\nsort_key = \"ORDER#{time}\"\nitem_size = \"1KB\"\n\
                 [[table.index]]\nname = \"by_region\"\npartition_key = \"REGION#{region}#{customer}\"\nsort_key = \"{time}\"\n";
    let items = rows(&format!(
        "{table}{}{}",
        pattern("By region", "orders.by_region", "query", Some("region")),
        pattern("Update by region", "orders", "update", Some("region")),
    ));
    assert_eq!(status(&items, "access_path", "By region"), Status::Pass);
    assert!(reason(&items, "access_path", "By region").contains("{customer}"));
    // an update must find its item: by an entity not in the key is a warning
    assert_eq!(
        status(&items, "access_path", "Update by region"),
        Status::Warn
    );
}

#[test]
fn low_cardinality_and_date_partition_keys_fail() {
    let tables = "[[table]]\nname = \"by_status\"\npartition_key = \"STATUS#{status}\"\nitem_size = \"1KB\"\n\
                  [[table]]\nname = \"by_day\"\npartition_key = \"DAY#{bucket}\"\nitem_size = \"1KB\"\nbucket = \"1d\"\n\
                  [[table]]\nname = \"by_time\"\npartition_key = \"{time}\"\nitem_size = \"1KB\"\n\
                  [[table]]\nname = \"global\"\npartition_key = \"GLOBAL\"\nitem_size = \"1KB\"\n\
                  [[table]]\nname = \"by_region\"\npartition_key = \"REGION#{region}\"\nitem_size = \"1KB\"\n\
                  [[table]]\nname = \"by_region_sharded\"\npartition_key = \"REGION#{region}\"\nitem_size = \"1KB\"\nshards = 32\n\
                  [[table]]\nname = \"by_day_sharded\"\npartition_key = \"DAY#{bucket}\"\nitem_size = \"1KB\"\nbucket = \"1d\"\nshards = 200\n\
                  [[table]]\nname = \"by_status_sharded\"\npartition_key = \"STATUS#{status}\"\nitem_size = \"1KB\"\nshards = 16\n\
                  [[table]]\nname = \"by_customer\"\npartition_key = \"C#{customer}\"\nitem_size = \"1KB\"\n\
                  [[table.index]]\nname = \"gsi_status\"\npartition_key = \"S#{status}\"\n";
    let items = rows(&format!(
        "{tables}{}",
        pattern("Put", "by_customer", "put", Some("customer"))
    ));
    let c = |t: &str| status(&items, "key_cardinality", t);
    assert_eq!(c("by_status"), Status::Fail);
    assert!(reason(&items, "key_cardinality", "by_status").contains("3 distinct values"));
    assert_eq!(c("by_day"), Status::Fail);
    assert!(reason(&items, "key_cardinality", "by_day").contains("monotonic"));
    assert_eq!(c("by_time"), Status::Fail);
    assert_eq!(c("global"), Status::Fail);
    // 500 regions: enough not to fail, too few to pass
    assert_eq!(c("by_region"), Status::Warn);
    // sharding lifts cardinality: 500 × 32 = 16,000
    assert_eq!(c("by_region_sharded"), Status::Pass);
    assert!(reason(&items, "key_cardinality", "by_region_sharded").contains("16,000"));
    // a date key with 200 write shards is no longer a sole date key: 200 values warn
    assert_eq!(c("by_day_sharded"), Status::Warn);
    // Already sharded, the fix is the shard count that reaches the
    // threshold: 10,000 daily values need 10,000 shards; 3 statuses × 16
    // shards = 48 fail, and ⌈100 / 3⌉ = 34 shards give 102.
    assert!(
        reason(&items, "key_cardinality", "by_day_sharded")
            .contains("raise shards from 200 (shards = 10000 gives 10,000 or more)"),
        "{}",
        reason(&items, "key_cardinality", "by_day_sharded")
    );
    assert_eq!(c("by_status_sharded"), Status::Fail);
    assert!(
        reason(&items, "key_cardinality", "by_status_sharded")
            .contains("raise shards from 16 (shards = 34 gives 100 or more)"),
        "{}",
        reason(&items, "key_cardinality", "by_status_sharded")
    );
    assert_eq!(c("by_customer"), Status::Pass);
    // a global index is checked too
    assert_eq!(c("by_customer.gsi_status"), Status::Fail);
}

#[test]
fn range_reads_need_a_sort_key() {
    let tables =
        "[[table]]\nname = \"flat\"\npartition_key = \"C#{customer}\"\nitem_size = \"1KB\"\n";
    let items = rows(&format!(
        "{ORDERS}{tables}{}{}",
        pattern("Sorted", "orders", "query", Some("customer")),
        pattern("Unsorted", "flat", "query", Some("customer")),
    ));
    assert_eq!(status(&items, "range_sort", "Sorted"), Status::Pass);
    assert!(reason(&items, "range_sort", "Sorted").contains("ORDER#{time}"));
    assert_eq!(status(&items, "range_sort", "Unsorted"), Status::Warn);
    assert!(reason(&items, "range_sort", "Unsorted").contains("sorted by what?"));
}

#[test]
fn appends_need_a_bucket() {
    let tables = "[[table]]\nname = \"unbounded\"\npartition_key = \"C#{customer}\"\nitem_size = \"1KB\"\n\
                  [[table]]\nname = \"bucketed\"\npartition_key = \"C#{customer}\"\nitem_size = \"1KB\"\nbucket = \"1d\"\n\
                  [[table]]\nname = \"expiring\"\npartition_key = \"C#{customer}\"\nitem_size = \"1KB\"\nttl = \"7d\"\n";
    let items = rows(&format!(
        "{tables}{}{}{}",
        pattern("Append unbounded", "unbounded", "append", Some("customer")),
        pattern("Append bucketed", "bucketed", "append", Some("customer")),
        pattern("Append expiring", "expiring", "append", Some("customer")),
    ));
    assert_eq!(
        status(&items, "bounded_arrays", "Append unbounded"),
        Status::Fail
    );
    assert!(reason(&items, "bounded_arrays", "Append unbounded").contains("unbounded"));
    assert_eq!(
        status(&items, "bounded_arrays", "Append bucketed"),
        Status::Pass
    );
    assert_eq!(
        status(&items, "bounded_arrays", "Append expiring"),
        Status::Warn
    );
}

#[test]
fn a_copy_with_no_write_path_warns() {
    let tables = "[[table]]\nname = \"customers\"\npartition_key = \"C#{customer}\"\nitem_size = \"1KB\"\n\
                  [[table]]\nname = \"customer_names\"\npartition_key = \"NAME#{customer}\"\nitem_size = \"100B\"\n\
                  [[table]]\nname = \"regions\"\npartition_key = \"R#{region}#{customer}\"\nitem_size = \"100B\"\n";
    let items = rows(&format!(
        "{tables}{}{}{}",
        pattern("Put customer", "customers", "put", Some("customer")),
        pattern("Read name", "customer_names", "get", Some("customer")),
        pattern("Put region", "regions", "put", Some("customer")),
    ));
    assert_eq!(status(&items, "copy_write_path", "customers"), Status::Pass);
    assert_eq!(
        status(&items, "copy_write_path", "customer_names"),
        Status::Warn
    );
    assert!(reason(&items, "copy_write_path", "customer_names").contains("`customers`"));
    assert_eq!(status(&items, "copy_write_path", "regions"), Status::Pass);

    let alone = rows(&format!(
        "{ORDERS}{}",
        pattern("Put", "orders", "put", Some("customer"))
    ));
    assert_eq!(status(&alone, "copy_write_path", "orders"), Status::Pass);
    assert!(reason(&alone, "copy_write_path", "orders").contains("checked"));
}

#[test]
fn ephemeral_tables_need_a_ttl() {
    let tables = "[[table]]\nname = \"userSessions\"\npartition_key = \"U#{customer}\"\nitem_size = \"1KB\"\n\
                  [[table]]\nname = \"login\"\npartition_key = \"OTP#{customer}\"\nitem_size = \"100B\"\nttl = \"5m\"\n\
                  [[table]]\nname = \"limits\"\npartition_key = \"RATE_LIMIT#{customer}\"\nitem_size = \"100B\"\n\
                  [[table]]\nname = \"templates\"\npartition_key = \"TEMPLATE#{customer}\"\nitem_size = \"100B\"\n\
                  [[table]]\nname = \"temperature\"\npartition_key = \"T#{customer}\"\nitem_size = \"100B\"\n";
    let items = rows(&format!(
        "{tables}{}",
        pattern("Put", "login", "put", Some("customer"))
    ));
    assert_eq!(
        status(&items, "ephemeral_ttl", "userSessions"),
        Status::Fail
    );
    assert!(reason(&items, "ephemeral_ttl", "userSessions").contains("\"sessions\""));
    assert_eq!(status(&items, "ephemeral_ttl", "login"), Status::Pass);
    assert_eq!(status(&items, "ephemeral_ttl", "limits"), Status::Fail);
    // whole words only: "template" and "temperature" are not "temp"
    assert_eq!(status(&items, "ephemeral_ttl", "templates"), Status::Pass);
    assert_eq!(status(&items, "ephemeral_ttl", "temperature"), Status::Pass);
}

#[test]
fn items_over_100_kb_are_flagged_for_object_storage() {
    let tables = "[[table]]\nname = \"docs\"\npartition_key = \"D#{customer}\"\nitem_size = { distribution = \"lognormal\", median = \"20KB\", p99 = \"250KB\" }\n\
                  [[table]]\nname = \"small\"\npartition_key = \"S#{customer}\"\nitem_size = \"100KB\"\n\
                  [[table]]\nname = \"wide\"\npartition_key = \"W#{customer}\"\nitem_size = { distribution = \"uniform\", min = \"1KB\", max = \"300KB\" }\n";
    let items = rows(&format!(
        "{tables}{}",
        pattern("Put", "docs", "put", Some("customer"))
    ));
    assert_eq!(status(&items, "blob_offload", "docs"), Status::Warn);
    assert!(reason(&items, "blob_offload", "docs").contains("250 KB"));
    // exactly 100 KB is not over
    assert_eq!(status(&items, "blob_offload", "small"), Status::Pass);
    assert_eq!(status(&items, "blob_offload", "wide"), Status::Warn);
}

#[test]
fn shipped_date_key_scenario_fails_its_checklist() {
    let text = std::fs::read_to_string(crate::util::root().join("scenarios/orders-by-date.toml"))
        .expect("scenarios/orders-by-date.toml");
    let items = review(&scenario(&text));
    assert_eq!(status(&items, "key_cardinality", "orders"), Status::Fail);
}

#[test]
fn run_results_carry_the_checklist() {
    let text = doc(&format!(
        "[[table]]\nname = \"sessions\"\npartition_key = \"SESSION#{{customer}}\"\nitem_size = \"1KB\"\n{}\n[simulation]\ntrials = 2\nduration = \"10s\"\n",
        pattern("Get", "sessions", "get", Some("customer"))
    ));
    let results = crate::util::run(&text);
    assert_eq!(results.checklist, review(&scenario(&text)));
    assert_eq!(
        status(&results.checklist, "ephemeral_ttl", "sessions"),
        Status::Fail
    );
}

/// A compound ranged MongoDB shard key `{ deviceId: 1, ts: 1 }`, written
/// `{device}#{time}` (a new user's design): a query by device reads a key
/// range in key order, so neither the "no sort key" warning nor the advice
/// to move `{time}` to the sort key is given; on a hashed shard key, and on
/// a key-value store, both are.
#[test]
fn a_ranged_store_reads_a_time_ordered_partition_key_as_a_range() {
    let text = |store: &str| {
        format!(
            "schema_version = 1\nname = \"iot\"\n[store]\n{store}\n\
             [[entity]]\nname = \"device\"\ncount = 20000\n\
             [[table]]\nname = \"readings\"\npartition_key = \"{{device}}#{{time}}\"\nitem_size = \"400B\"\n\
             [[access_pattern]]\nname = \"ingest\"\ntable = \"readings\"\noperation = \"put\"\nrate = 300\nby = \"device\"\n\
             [[access_pattern]]\nname = \"last hour\"\ntable = \"readings\"\noperation = \"query\"\nrate = 10\nby = \"device\"\nitems = 60\n"
        )
    };
    // (store, whether it reads the key as a range in key order)
    for (store, ordered) in [
        ("kind = \"mongodb\"\nshard_key = \"ranged\"", true),
        ("kind = \"mongodb\"\nshard_key = \"RANGED\"", true),
        ("kind = \"bigtable\"", true),
        ("kind = \"mongodb\"\nshard_key = \"hashed\"", false),
        ("kind = \"dynamodb\"", false),
    ] {
        let s = scenario(&text(store));
        let warned = s
            .warnings
            .iter()
            .any(|w| w.message.contains("which has no sort key"));
        assert_eq!(warned, !ordered, "{store}: {:#?}", s.warnings);
        let items = review(&s);
        let (expected, says) = if ordered {
            (Status::Pass, "in key order")
        } else {
            (Status::Warn, "move {time} to the sort key")
        };
        assert_eq!(
            status(&items, "access_path", "last hour"),
            expected,
            "{store}"
        );
        assert!(
            reason(&items, "access_path", "last hour").contains(says),
            "{store}"
        );
        assert_eq!(
            status(&items, "range_sort", "last hour"),
            expected,
            "{store}"
        );
    }
}

/// On a store that keeps keys in order, `{time}#{device}` sorts by time
/// first: one device's items are spread over the whole key range, so
/// reading its latest is a filtered scan of the table, not a range read
/// (helper-67's timestamp-first Bigtable design was told "resolves to a
/// range read"). The fix names the key reordered; `{device}#{time}` and
/// `EVT#{device}#{time}` still pass.
#[test]
fn a_ranged_store_cannot_range_read_an_entity_after_the_time() {
    let text = |store: &str, key: &str| {
        format!(
            "schema_version = 1\nname = \"iot\"\n[store]\n{store}\n\
             [[entity]]\nname = \"device\"\ncount = 20000\n\
             [[table]]\nname = \"readings\"\npartition_key = \"{key}\"\nitem_size = \"400B\"\n\
             [[access_pattern]]\nname = \"ingest\"\ntable = \"readings\"\noperation = \"put\"\nrate = 300\nby = \"device\"\n\
             [[access_pattern]]\nname = \"last hour\"\ntable = \"readings\"\noperation = \"query\"\nrate = 10\nby = \"device\"\nitems = 60\n"
        )
    };
    for store in [
        "kind = \"bigtable\"",
        "kind = \"mongodb\"\nshard_key = \"ranged\"",
    ] {
        for (key, fixed) in [
            ("{time}#{device}", "`{device}#{time}`"),
            ("EVT#{time}#{device}", "`EVT#{device}#{time}`"),
        ] {
            let items = review(&scenario(&text(store, key)));
            assert_eq!(
                status(&items, "access_path", "last hour"),
                Status::Fail,
                "{store} {key}"
            );
            let why = reason(&items, "access_path", "last hour");
            assert!(why.contains("a scan of the table"), "{why}");
            assert!(why.contains(&format!("(as {fixed})")), "{why}");
        }
        for key in ["{device}#{time}", "EVT#{device}#{time}"] {
            let items = review(&scenario(&text(store, key)));
            assert_eq!(
                status(&items, "access_path", "last hour"),
                Status::Pass,
                "{store} {key}"
            );
        }
    }
}

/// The index remedy is told in the store's own terms: on MongoDB an index
/// is kept per shard, so a read through it goes to every shard unless its
/// key starts the shard key (helper-68 was told "add a global index");
/// DynamoDB keeps "a global index".
#[test]
fn the_index_remedy_is_the_stores_own() {
    let text = |store: &str| {
        format!(
            "schema_version = 1\nname = \"n\"\n[store]\n{store}\n\
             [[entity]]\nname = \"user\"\ncount = 20000\n\
             [[table]]\nname = \"notes\"\npartition_key = \"{{id}}\"\nitem_size = \"400B\"\n\
             [[access_pattern]]\nname = \"mark read\"\ntable = \"notes\"\noperation = \"update\"\nrate = 10\nby = \"user\"\n"
        )
    };
    let why = |store: &str| {
        let items = review(&scenario(&text(store)));
        reason(&items, "access_path", "mark read").to_string()
    };
    let mongo = why("kind = \"mongodb\"");
    assert!(mongo.contains("the read goes to every shard"), "{mongo}");
    assert!(!mongo.contains("global index"), "{mongo}");
    let dynamo = why("kind = \"dynamodb\"");
    assert!(
        dynamo.contains("add a global index ([[table.index]])"),
        "{dynamo}"
    );
}

#[test]
fn a_mongodb_index_lives_with_its_documents_and_has_no_key_cardinality_row() {
    // MongoDB keeps an index's entries on each shard beside their
    // documents: no separate index partitions to concentrate writes on, so
    // a status index is not told to write-shard. DynamoDB's global index
    // keyed the same way is judged (3 statuses: fail).
    let body =
        "[[table]]\nname = \"orders\"\npartition_key = \"{customer}\"\nitem_size = \"1KB\"\n\
                [[table.index]]\nname = \"by_status\"\npartition_key = \"{status}\"\n\
                [[access_pattern]]\nname = \"Put\"\ntable = \"orders\"\noperation = \"put\"\nrate = 10\nby = \"customer\"\n";
    let text = doc(body).replace("kind = \"generic\"\n", "kind = \"mongodb\"\n");
    let items = review(&scenario(&text));
    assert_eq!(status(&items, "key_cardinality", "orders"), Status::Pass);
    assert!(
        !items
            .iter()
            .any(|c| c.check == "key_cardinality" && c.subject == "orders.by_status"),
        "{items:#?}"
    );
    let text = doc(body).replace(
        "kind = \"generic\"\n",
        "kind = \"dynamodb\"\nmode = \"on_demand\"\n",
    );
    let items = review(&scenario(&text));
    assert_eq!(
        status(&items, "key_cardinality", "orders.by_status"),
        Status::Fail
    );
}
